// State shared by the workers of one run: the configuration, the start barrier, the deadline
// and the stop request. Nothing here is written on the per-transaction hot path.
#pragma once

#include "bench/run_config.hpp"
#include "bench/time_series.hpp"
#include "util/clock.hpp"
#include "util/stop_signal.hpp"

#include <atomic>
#include <barrier>
#include <cstdint>

namespace pglab::bench {

/// Cumulative counters one worker publishes for the progress reporter (-P). Only the owning
/// worker writes (relaxed stores into its own cache line), so the hot path has no contention.
struct alignas(64) ProgressCounters {
    std::atomic<int64_t> count{0};
    std::atomic<int64_t> failures{0};
    std::atomic<int64_t> skipped{0};
    std::atomic<int64_t> retried{0};
    std::atomic<int64_t> retries{0};
    std::atomic<double> latency_sum{0};
    std::atomic<double> latency_sum2{0};
    std::atomic<double> lag_sum{0};
};

struct RunShared {
    explicit RunShared(const RunConfig& c, int workers)
        : config(c), go(workers), series(c.duration_s) {}

    const RunConfig& config;
    std::barrier<> go; ///< all initial connections are made: start measuring
    std::atomic<bool> setup_failed{false};
    std::atomic<usec_t> end_time{0}; ///< -T: no transaction starts after this (0: none)
    std::atomic<usec_t> earliest_start{0};
    TimeSeriesCollector series; ///< per-second figures, fed once per second by each worker
};

/// What stopped the run (SIGINT or SIGTERM; in the lab also a deadline), 0 while nothing did:
/// util/stop_signal's request, polled by the workers between transactions.
using util::g_stop_signal;
using util::stop_requested;

} // namespace pglab::bench
