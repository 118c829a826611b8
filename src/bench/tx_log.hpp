// The per-transaction log of -l (pgbench_log.<pid>[.<thread>]): one line per transaction,
// written by the worker that ran it, with pgbench's columns.
#pragma once

#include "bench/run_config.hpp"
#include "script/prng.hpp"
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
    /// else "skipped", "failed", "serialization" or "deadlock". `sample` decides sampling.
    void write(int client, int64_t tx_no, double latency_us, const char* outcome, int script,
               usec_t now, double lag_us, uint32_t tries, script::Prng& sample);

    void finish(usec_t now);

private:
    FILE* m_file = nullptr;
    const RunConfig* m_config = nullptr;
    usec_t m_epoch_shift = 0;
};

} // namespace pglab::bench
