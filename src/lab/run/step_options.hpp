// lab/run: the options of `init` and `bench` steps, parsed by pglab bench's own option parser as
// the step runs them (the server's connection values, `[scripts.NAME]` as files), and checked
// the same way before any server exists. Internal to lab/run.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/run/steps.hpp"
#include "pg/conn_params.hpp"
#include "util/result.hpp"

#include <optional>
#include <string>
#include <vector>

#include "options/bench_options.hpp"

namespace pglab::lab::run {

/// The option parser's arguments for a step: the server's connection values (when `params` has
/// a host), --initialize for init, the step's scripts, then its expanded `options`.
std::vector<std::string> full_arguments(const experiment::Step& step, const pg::ConnParams& params,
                                        bool init, const std::vector<std::string>& args);

/// The step's options parsed against its server; `arguments` gets them as given (a password
/// masked) once made.
Result<options::BenchOptions>
parse_step_options(const experiment::Step& step, StepContext& ctx, bool init,
                   std::optional<std::vector<std::string>>& arguments);

/// Checks the options (and so the scripts) of an `init` or `bench` step as the step will parse
/// them, with `args` its expanded `options`, before any server exists. The error is the option
/// parser's (or getopt's complaint), without a position.
Status check_bench_options(const experiment::ExperimentSpec& spec, const experiment::Step& step,
                           const std::vector<std::string>& args);

} // namespace pglab::lab::run
