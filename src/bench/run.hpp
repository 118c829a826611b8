// Entry point of the benchmark engine: RunConfig in, RunResult out.
#pragma once

#include "bench/run_config.hpp"
#include "bench/run_result.hpp"
#include "stats/progress_line.hpp"
#include "util/result.hpp"

namespace pglab::bench {

/// Runs a benchmark as pgbench does: setup connection, version banner on stdout, scale
/// discovery for builtin scripts, vacuum (unless -n), worker threads, progress lines (-P) on
/// stderr. Returns the merged statistics, also when clients aborted (`aborted_clients` > 0).
/// Errors are setup failures (exit 1), printed by the caller.
Result<RunResult> run(RunConfig& config);

/// How the -P lines of a run that started at `start_us` are written (options of the run).
stats::ProgressOptions progress_options(const RunConfig& config, usec_t start_us);

} // namespace pglab::bench
