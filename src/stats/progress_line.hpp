// The -P progress line, formatted exactly as pgbench 15's printProgressReport() from two
// snapshots of cumulative counters. Pure: the engine takes the snapshots and writes the line.
#pragma once

#include <cstdint>
#include <string>

namespace pglab::stats {

/// Cumulative counters of all workers at one instant (pgbench sums its threads' StatsData).
/// Every field only grows during a run; the line shows the difference of two snapshots.
struct ProgressSnapshot {
    int64_t time_us = 0;        ///< monotonic clock (µs) when the snapshot was taken
    int64_t count = 0;          ///< successful transactions
    double latency_sum_us = 0;  ///< sum of their latencies (µs)
    double latency_sum2_us = 0; ///< sum of squared latencies (µs²)
    int64_t failures = 0;       ///< failed transactions (serialization, deadlock, other)
    double lag_sum_us = 0;      ///< -R: sum of schedule lags (µs) of successful transactions
    int64_t skipped = 0;        ///< -R with -L: skipped transactions
    int64_t retried = 0;        ///< transactions retried at least once
    int64_t retries = 0;        ///< total retries
};

/// Which optional parts the line has, and how its time is shown.
struct ProgressOptions {
    int64_t test_start_us = 0;  ///< monotonic µs of the thread start: "%.1f s" counts from it
    bool timestamp = false;     ///< --progress-timestamp: "%.3f s" of Unix epoch time instead
    int64_t epoch_shift_us = 0; ///< wall-clock µs minus monotonic µs, for `timestamp`
    bool throttled = false;     ///< -R: ", lag %.3f ms"
    bool latency_limit = false; ///< -L: with -R, ", %lld skipped"
    uint32_t max_tries = 1;     ///< != 1: ", %lld retried, %lld retries"
};

/// One progress line ending in '\n', for the interval from `last` to `cur`:
/// "progress: %.1f s, %.1f tps, lat %.3f ms stddev %.3f, %lld failed" then ", lag %.3f ms"
/// (-R), ", %lld skipped" (-R and -L), ", %lld retried, %lld retries" (max_tries != 1).
/// tps = Δcount / Δtime; lat, stddev and lag are per successful transaction of the interval
/// and 0 when there is none. NaN/Infinity are spelled as PostgreSQL does (e.g. when
/// `cur.time_us == last.time_us`).
std::string format_progress_line(const ProgressSnapshot& last, const ProgressSnapshot& cur,
                                 const ProgressOptions& options);

} // namespace pglab::stats
