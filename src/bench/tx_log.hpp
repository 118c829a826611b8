// The transaction log of -l (pgbench_log.<pid>[.<thread>]), written by the worker that ran the
// transactions: one line per transaction, or with --aggregate-interval one line per interval,
// in the columns of the selected pgbench (19 adds the other failures to an interval's line).
#pragma once

#include "bench/run_config.hpp"
#include "script/prng.hpp"
#include "stats/simple_stats.hpp"
#include "util/clock.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

namespace pglab::bench {

class TxLog {
public:
    TxLog() = default;
    ~TxLog();
    TxLog(const TxLog&) = delete;
    TxLog& operator=(const TxLog&) = delete;

    /// Opens the file of worker `index`. Error text: `could not open logfile "NAME": <reason>`.
    bool open(const RunConfig& config, int index, std::string& error);

    bool enabled() const { return m_file != nullptr; }

    /// Called once the measured period starts: fixes the monotonic-to-epoch offset.
    void start(usec_t mono_now);

    /// One transaction that ended at monotonic time `now`. `outcome` is nullptr for a success,
    /// else "skipped", "failed", "serialization", "deadlock" or "other". `sample` decides
    /// sampling.
    void write(int client, int64_t tx_no, double latency_us, const char* outcome, int script,
               usec_t now, double lag_us, uint32_t tries, script::Prng& sample);

    /// Writes the intervals that ended before `now`, and with `final` the partial last one
    /// (so that the aggregated counts add up to the report's totals), then closes the file.
    void finish(usec_t now);

private:
    /// One --aggregate-interval bucket (pgbench's StatsData for logs).
    struct Interval {
        usec_t start_epoch_us = 0;
        int64_t count = 0;
        stats::SimpleStats latency;
        stats::SimpleStats lag;
        int64_t skipped = 0;
        int64_t retried = 0;
        int64_t retries = 0;
        int64_t serialization = 0;
        int64_t deadlock = 0;
        int64_t other = 0;
    };

    void write_interval();
    void advance_intervals(usec_t epoch_now);

    Interval m_interval;
    FILE* m_file = nullptr;
    const RunConfig* m_config = nullptr;
    usec_t m_epoch_shift = 0;
};

} // namespace pglab::bench
