// pglab's addition to the report: latency percentiles from the full histogram, a block after
// pgbench's lines with a fixed, parseable shape.
#pragma once

#include "bench/run_config.hpp"
#include "bench/run_result.hpp"

#include <string>

namespace pglab::output {

/// The percentiles every report block lists, in order (labels "p50" ... "p99.9", then "max").
inline constexpr double k_report_percentiles[] = {50.0, 90.0, 99.0, 99.9};

/// The block, or "" when no transaction succeeded:
///
///     latency percentiles (pglab, from the full histogram of successful transactions):
///      p50 = 1.234 ms
///      p90 = 2.345 ms
///      p99 = 5.678 ms
///      p99.9 = 9.876 ms
///      max = 12.345 ms
///
/// Values are "%.3f ms" (µs / 1000; within 0.1% above the exact value, max is exact). Latency
/// is measured from the scheduled start under -R (like pgbench's), so a second block with the
/// same lines follows under -R, headed
/// "service time percentiles (pglab, from the actual start of successful transactions):".
std::string percentile_block(const bench::RunConfig& config, const bench::RunResult& result);

} // namespace pglab::output
