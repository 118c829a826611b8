// lab/plan: what one run of the plan makes of the spec's steps and servers: the values of
// `${name}` and `when`, the expanded step fields, the bench and init option values the matrix
// offers, and each server's effective settings. Pure; the orchestrator executes the result.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/plan/plan.hpp"
#include "util/result.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "options/bench_options.hpp"

namespace pglab::lab::plan {

/// The variables visible to one run: the cell's bindings, `server` (the cell's server),
/// `repetition` (integer), `warmup` (boolean) and `run` (the run's ordinal, from 0).
class RunValues {
public:
    RunValues(const Cell& cell, const PlannedRun& run) : m_cell(cell), m_run(run) {}

    /// The value of `name`, or nullopt when it is not defined.
    std::optional<experiment::Scalar> lookup(std::string_view name) const;

    /// `field` with every `${name}` replaced. Error `file:line:column: ...` when it cannot be.
    Result<std::string> expand(const experiment::TextField& field) const;

    /// Whether `step` runs in this run (its `when` condition, true when it has none).
    Result<bool> applies(const experiment::Step& step) const;

    /// The `options` of a step, expanded.
    Result<std::vector<std::string>> own_options(const experiment::Step& step) const;

    /// The option values the matrix offers an init or bench step, for those its own options
    /// leave out (options::parse_bench_options decides which): init: -s from `scale`; bench:
    /// -c, -j, -T, -t, -R from clients, threads, duration, transactions, rate, and -D NAME=VALUE
    /// per `vars.NAME`. Empty for other kinds.
    std::vector<options::OptionDefault> matrix_options(const experiment::Step& step) const;

    /// The server that `step` runs on: its `server`, its session's server, or the cell's.
    std::string server_of(const experiment::ExperimentSpec& spec,
                          const experiment::Step& step) const;

    /// What decides whether a `once = true` step must run again: the server it runs on and
    /// every expanded field (statements, `arguments`, command, mode, duration); `arguments` are
    /// an init or bench step's as the option parser made them (the matrix values it took, then
    /// the step's own), the own options for other kinds. The orchestrator keeps the last
    /// fingerprint of each such step per server and runs the step when it differs (or the
    /// server's cluster was created anew).
    Result<std::string> fingerprint(const experiment::ExperimentSpec& spec,
                                    const experiment::Step& step,
                                    const std::vector<std::string>& arguments) const;

    const Cell& cell() const { return m_cell; }

    const PlannedRun& run() const { return m_run; }

private:
    const Cell& m_cell;
    const PlannedRun& m_run;
};

/// An option value the matrix offers, spelt as an argument: `--client=4`, `--define=NAME=VALUE`.
std::string option_argument(const options::OptionDefault& option);

/// The matrix variable an option value comes from: "clients" for -c, "vars.NAME" for -D NAME=.
std::string matrix_variable(const options::OptionDefault& option);

/// The long name of an option the matrix may offer ("client" for 'c'); "" for another letter.
std::string_view matrix_option_long_name(char letter);

/// The postgresql.conf settings of `server` in `cell`: the server's own settings with the
/// cell's `settings.NAME` values applied on top (matrix settings apply to the cell's server
/// only), in file order, a name appearing once (case-insensitive).
std::vector<experiment::Setting> effective_settings(const experiment::ExperimentSpec& spec,
                                                    const Cell& cell, std::string_view server);

} // namespace pglab::lab::plan
