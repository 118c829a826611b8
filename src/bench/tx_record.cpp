// End-of-transaction accounting (pgbench's processXactStats): the worker's own statistics,
// the -l log line and the counters the progress reporter reads.
#include "bench/worker.hpp"

namespace pglab::bench {

namespace {

/// A failure's name in the -l log under --failures-detailed (pgbench's getResultString).
const char* outcome_name(TxError e) {
    switch (e) {
    case TxError::serialization:
        return "serialization";
    case TxError::deadlock:
        return "deadlock";
    default:
        return "other";
    }
}

void add_tx(TxStats& s, const Client& c, bool skipped, double latency, double lag,
            usec_t service_us, const RunConfig& config) {
    if (skipped) {
        ++s.skipped;
    } else if (c.tx_error == TxError::serialization) {
        ++s.serialization_failures;
    } else if (c.tx_error == TxError::deadlock) {
        ++s.deadlock_failures;
    } else if (c.tx_error == TxError::other) {
        ++s.other_failures;
    } else {
        ++s.count;
        s.latency_us.add(latency);
        s.histogram.record(static_cast<int64_t>(latency));
        if (config.rate_tps > 0) {
            s.lag_us.add(lag);
            s.service_histogram.record(service_us);
        }
        if (config.latency_limit_us > 0 && latency > static_cast<double>(config.latency_limit_us)) {
            ++s.late;
        }
    }
    if (!skipped && c.tries > 1) {
        ++s.retried;
        s.retries += c.tries - 1;
    }
}

} // namespace

void Worker::record_tx(Client& c, usec_t now, bool skipped) {
    const double latency = skipped ? 0.0 : static_cast<double>(now - c.tx_scheduled);
    const double lag = static_cast<double>(c.tx_begin - c.tx_scheduled);
    const usec_t service = now - c.tx_begin;
    add_tx(m_total, c, skipped, latency, lag, service, m_config);
    if (m_scripts.size() > 1) { // with one script its statistics are the totals (see run())
        add_tx(m_scripts[static_cast<size_t>(c.script)].tx, c, skipped, latency, lag, service,
               m_config);
    }

    roll_second(now);
    if (skipped) {
        ++m_second.skipped;
    } else if (c.tx_error != TxError::none) {
        ++m_second.failures;
    } else {
        ++m_second.count;
        m_second.latency_sum_us += latency;
        m_second.histogram.record(static_cast<int64_t>(latency));
    }

    if (m_log.enabled()) {
        const char* outcome = nullptr;
        if (skipped) {
            outcome = "skipped";
        } else if (c.tx_error != TxError::none) {
            if (!m_config.failures_detailed) {
                outcome = "failed";
            } else {
                outcome = outcome_name(c.tx_error);
            }
        }
        // As pgbench, the lag of a transaction that did not succeed (skipped, failed) is logged
        // as 0: its schedule is not what the lag column reports.
        m_log.write(c.id, c.tx_done + 1, latency, outcome, c.script, now,
                    outcome == nullptr ? lag : 0.0, c.tries, m_sample_rs);
    }

    // The fleet's monitor reads them too: a lost process's last counters stay in its report.
    if (m_config.progress_s > 0 || m_config.hooks != nullptr) {
        const auto relaxed = std::memory_order_relaxed;
        m_progress.count.store(m_total.count, relaxed);
        m_progress.failures.store(m_total.failures(), relaxed);
        m_progress.skipped.store(m_total.skipped, relaxed);
        m_progress.retried.store(m_total.retried, relaxed);
        m_progress.retries.store(m_total.retries, relaxed);
        m_progress.latency_sum.store(m_total.latency_us.sum, relaxed);
        m_progress.latency_sum2.store(m_total.latency_us.sum2, relaxed);
        m_progress.lag_sum.store(m_total.lag_us.sum, relaxed);
    }
}

void Worker::roll_second(usec_t now) {
    const int64_t second = (now + m_epoch_shift_us) / 1000000;
    if (second > m_second.epoch_s) {
        m_shared.series.add(m_second); // once per second: a short lock
        m_second.clear();
        m_second.epoch_s = second;
    }
}

} // namespace pglab::bench
