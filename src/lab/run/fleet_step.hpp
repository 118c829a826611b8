// lab/run: a bench step with `processes = N` (N > 1): the benchmark runs through mpirun as
// `pglab bench` in N processes (on `hosts`), and its JSON export, fleet section included, is the
// step's record. The step's options were parsed and checked in-process first.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "pg/conn_params.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace pglab::lab::run {

/// What the fleet run gave: mpirun's exit, and the export (null when none was written).
struct FleetRun {
    int exit_code = -1; ///< mpirun's (the first failing process's status when one failed)
    int signal = 0;     ///< the signal that ended mpirun, 0 when it exited
    std::string error;  ///< could not start mpirun, or no export
    nlohmann::json bench = nullptr;
};

/// mpirun's command line for `step`: --oversubscribe, --allow-run-as-root when root, -n,
/// --host when `step.hosts` is given, then this pglab executable's `bench` with `bench_args`
/// (connection, scripts as files, options) and --export-json=`json`.
std::vector<std::string> fleet_command(const experiment::Step& step,
                                       const std::vector<std::string>& bench_args,
                                       const std::filesystem::path& json);

/// Runs the step through mpirun with its output appended to `log`; `env` is added to mpirun's
/// environment (PGPASSWORD goes there, never on the command line). `stop` is polled (a signal,
/// the run's deadline): mpirun is then ended.
FleetRun run_fleet_step(const experiment::Step& step, const std::vector<std::string>& bench_args,
                        const std::vector<std::pair<std::string, std::string>>& env,
                        const std::filesystem::path& log, const std::function<bool()>& stop);

} // namespace pglab::lab::run
