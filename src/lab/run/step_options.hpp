// lab/run: the options of `init` and `bench` steps, parsed by pglab bench's own option parser as
// the step runs them (the server's connection values, `[scripts.NAME]` as files), and checked
// the same way before any server exists. Internal to lab/run.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/plan/run_values.hpp"
#include "lab/run/steps.hpp"
#include "pg/conn_params.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "options/bench_options.hpp"

namespace pglab::lab::run {

/// An init or bench step's options in one run, read by pglab bench's option parser.
struct StepOptions {
    options::BenchOptions parsed;
    /// The matrix values the parser took (`--client=4`...), then the step's own options,
    /// expanded: what the run records (a password masked), the fleet passes on and a `once`
    /// step's fingerprint holds.
    std::vector<std::string> arguments;
};

/// The option parser's arguments for a step: the server's connection values (when `params` has
/// a host), --initialize for init, the step's scripts, then `args`.
std::vector<std::string> full_arguments(const experiment::Step& step, const pg::ConnParams& params,
                                        bool init, const std::vector<std::string>& args);

/// Reads the options of an `init` or `bench` step in the run `values` stands for, connecting to
/// `params` (none before a server exists: the options' own connection values are then left
/// unused), the matrix's values (RunValues::matrix_options) where the options are silent.
/// What the parser prints (getopt's complaint) goes to `log` when it is given. The error is
/// the parser's, without a position.
Result<StepOptions> read_step_options(const experiment::ExperimentSpec& spec,
                                      const experiment::Step& step, const plan::RunValues& values,
                                      const pg::ConnParams& params,
                                      const std::filesystem::path& log);

/// The step's options read against its server, for running it; `arguments` gets them as given
/// (a password masked), or, when they are refused, every value handed to the parser.
Result<StepOptions> parse_step_options(const experiment::Step& step, StepContext& ctx,
                                       std::optional<std::vector<std::string>>& arguments);

/// parse_step_options for an init or bench step, whose kind's `Record` becomes the outcome's
/// details with the arguments: none, with `out` failed and the record's exit status 1, when
/// the options are refused.
template <typename Record>
std::optional<StepOptions> options_or_fail(const experiment::Step& step, StepContext& ctx,
                                           StepOutcome& out) {
    auto& record = out.details.emplace<Record>();
    auto options = parse_step_options(step, ctx, record.arguments);
    if (!options) {
        out.fail(error_text(options.error()));
        record.exit_status = 1;
        return std::nullopt;
    }
    return std::move(*options);
}

/// Checks the options (and so the scripts) of an `init` or `bench` step in the run `values`
/// stands for as the step will read them, before any server exists.
Status check_bench_options(const experiment::ExperimentSpec& spec, const experiment::Step& step,
                           const plan::RunValues& values);

/// A matrix value that an init or bench step's own options replace.
struct ReplacedValue {
    std::string variable;      ///< "duration", "vars.nrows"
    std::string option;        ///< the step's option that replaces it, as written ("-t")
    experiment::SourcePos pos; ///< that option's
};

/// The first matrix value the step's own options (`options`, read by read_step_options in the
/// run `values` stands for) replace: `-t` against `duration` (pgbench takes one of -t and -T),
/// `-c` against `clients`, `-D n=1` against `vars.n`. A matrix variable the step's options
/// override would make every cell run the same and the report label them as different.
std::optional<ReplacedValue> replaced_matrix_value(const experiment::Step& step,
                                                   const plan::RunValues& values,
                                                   const StepOptions& options);

/// A `once` step's fingerprint in the run `values` stands for (RunValues::fingerprint), with an
/// init or bench step's arguments as StepOptions::arguments read without a server (every value
/// handed to the parser when it refuses them), the expanded `options` for other kinds.
Result<std::string> once_fingerprint(const experiment::ExperimentSpec& spec,
                                     const experiment::Step& step, const plan::RunValues& values);

} // namespace pglab::lab::run
