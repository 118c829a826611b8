// `pglab bench` as one process of several started by mpirun: the entry point of the fleet.
#pragma once

#include "bench/run_config.hpp"
#include "bench/run_result.hpp"

#include <functional>

#include "fleet/launcher.hpp"

namespace pglab::fleet {

/// Prints the report and writes the exports of the whole fleet's result (rank 0 only); returns
/// the exit status, as a single process's `pglab bench` would.
using ReportFn = std::function<int(bench::RunConfig& config, bench::RunResult& result)>;

/// Runs `config` (the whole benchmark, as the command line gives it) as process `launch.rank` of
/// the job: MPI start, the share of this process, a common start, heartbeats and -P lines, then
/// rank 0 merges every process's result and calls `report`. Exit status: `report`'s on rank 0,
/// raised to 2 when a process was lost (named on stderr); on the other ranks 0, 1 (set-up
/// failure) or 2 (clients aborted). Without MPI in the build: an error, exit 1.
int run_fleet(bench::RunConfig& config, const LaunchInfo& launch, const ReportFn& report);

} // namespace pglab::fleet
