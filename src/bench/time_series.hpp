// The per-second time series of a run (--export-json "series"): each worker accumulates the
// current wall-clock second and hands it to the run's collector when the second is over; the
// collector merges the workers' seconds and keeps only a small summary of each.
#pragma once

#include "stats/coarse_histogram.hpp"
#include "util/clock.hpp"

#include <array>
#include <cstdint>
#include <mutex>
#include <vector>

namespace pglab::bench {

/// One wall-clock second of the whole run. Transactions are counted in the second in which
/// they ended; latency is that of successful ones (from the scheduled start under -R).
struct SecondStats {
    int64_t epoch_s = 0;  ///< start of the second, Unix epoch seconds
    int64_t count = 0;    ///< successful transactions
    int64_t failures = 0; ///< failed transactions (serialization, deadlock, other)
    int64_t skipped = 0;  ///< -R with -L: skipped transactions
    double latency_sum_us = 0;
    int64_t latency_p99_us = 0; ///< from a CoarseHistogram (within 3.2%, never above max)
    int64_t latency_max_us = 0;

    /// Adds another report of the same second. The p99 of two coarse histograms that are gone
    /// cannot be combined: the higher one is an upper bound of the sum's.
    void add(const SecondStats& other);
};

/// What one worker gathers during its current second. Recording allocates nothing.
struct SecondAccumulator {
    int64_t epoch_s = -1; ///< the second being gathered, -1 before the first transaction
    int64_t count = 0;
    int64_t failures = 0;
    int64_t skipped = 0;
    double latency_sum_us = 0;
    stats::CoarseHistogram histogram;

    bool empty() const { return count == 0 && failures == 0 && skipped == 0; }

    void clear();
};

/// Merges the workers' seconds (thread-safe; called once per second per worker, never per
/// transaction). Memory: a window of k_window open seconds (about 4 KiB each) plus one
/// SecondStats (56 bytes) per second of the run. A second is summarised (its p99 fixed) when a
/// report k_window seconds newer arrives or at the end; a report later than that (a worker
/// blocked for k_window seconds) still adds its counts, but not to the p99.
class TimeSeriesCollector {
public:
    /// `expected_seconds`: the run's length when known (-T), reserved up front (else grown).
    explicit TimeSeriesCollector(int64_t expected_seconds);

    /// Adds one worker's finished second (`acc.empty()` is ignored).
    void add(const SecondAccumulator& acc);

    /// After every worker has stopped: every second from the first to the last one with a
    /// report, in order, empty seconds included.
    std::vector<SecondStats> finish();

private:
    static constexpr size_t k_window = 8;

    struct Open {
        SecondStats stats;
        stats::CoarseHistogram histogram;
        bool used = false;
    };

    void close(Open& open);

    std::mutex m_mutex;
    std::array<Open, k_window> m_open;
    std::vector<SecondStats> m_closed;
};

} // namespace pglab::bench
