// format_progress_line: the arithmetic of pgbench 15's printProgressReport(), kept operation
// for operation so that rounding (and NaN cases) match byte for byte.
#include "stats/progress_line.hpp"

#include "stats/pg_format.hpp"

#include <cmath>

namespace pglab::stats {

std::string format_progress_line(const ProgressSnapshot& last, const ProgressSnapshot& cur,
                                 const ProgressOptions& options) {
    const int64_t run_us = cur.time_us - last.time_us;
    const int64_t cnt = cur.count - last.count;
    const double total_run = static_cast<double>(cur.time_us - options.test_start_us) / 1000000.0;
    const double tps = 1000000.0 * static_cast<double>(cnt) / static_cast<double>(run_us);
    double latency = 0;
    double stddev = 0;
    double lag = 0;
    if (cnt > 0) {
        const auto n = static_cast<double>(cnt);
        latency = 0.001 * (cur.latency_sum_us - last.latency_sum_us) / n;
        const double sqlat = 1.0 * (cur.latency_sum2_us - last.latency_sum2_us) / n;
        stddev = 0.001 * std::sqrt(sqlat - 1000000.0 * latency * latency);
        lag = 0.001 * (cur.lag_sum_us - last.lag_sum_us) / n;
    }

    std::string line = "progress: ";
    if (options.timestamp) {
        pg_append(line, "%.3f s",
                  0.000001 * static_cast<double>(cur.time_us + options.epoch_shift_us));
    } else {
        pg_append(line, "%.1f s", total_run);
    }
    pg_append(line, ", %.1f tps, lat %.3f ms stddev %.3f, %lld failed", tps, latency, stddev,
              static_cast<long long>(cur.failures - last.failures));
    if (options.throttled) {
        pg_append(line, ", lag %.3f ms", lag);
        if (options.latency_limit) {
            pg_append(line, ", %lld skipped", static_cast<long long>(cur.skipped - last.skipped));
        }
    }
    if (options.max_tries != 1) {
        pg_append(line, ", %lld retried, %lld retries",
                  static_cast<long long>(cur.retried - last.retried),
                  static_cast<long long>(cur.retries - last.retries));
    }
    line += '\n';
    return line;
}

} // namespace pglab::stats
