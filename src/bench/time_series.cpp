#include "bench/time_series.hpp"

#include <algorithm>

namespace pglab::bench {

void SecondStats::add(const SecondStats& other) {
    count += other.count;
    failures += other.failures;
    skipped += other.skipped;
    latency_sum_us += other.latency_sum_us;
    latency_p99_us = std::max(latency_p99_us, other.latency_p99_us);
    latency_max_us = std::max(latency_max_us, other.latency_max_us);
}

void SecondAccumulator::clear() {
    count = 0;
    failures = 0;
    skipped = 0;
    latency_sum_us = 0;
    histogram.reset();
}

TimeSeriesCollector::TimeSeriesCollector(int64_t expected_seconds) {
    // -T plus the end grace period and partial first/last seconds; -t runs grow as needed.
    m_closed.reserve(static_cast<size_t>(std::max<int64_t>(expected_seconds, 60) + 16));
}

void TimeSeriesCollector::close(Open& open) {
    open.stats.latency_p99_us = open.histogram.value_at_percentile(99.0);
    open.stats.latency_max_us = open.histogram.max();
    m_closed.push_back(open.stats);
    open.histogram.reset();
    open.stats = SecondStats{};
    open.used = false;
}

void TimeSeriesCollector::add(const SecondAccumulator& acc) {
    if (acc.empty() || acc.epoch_s < 0) {
        return;
    }
    const std::lock_guard lock(m_mutex);
    Open& open = m_open[static_cast<size_t>(acc.epoch_s) % k_window];
    if (open.used && open.stats.epoch_s < acc.epoch_s) {
        close(open);
    }
    if (open.used && open.stats.epoch_s > acc.epoch_s) {
        // Very late: that second was summarised already; add its counts, not its latencies.
        auto it = std::find_if(m_closed.rbegin(), m_closed.rend(),
                               [&](const SecondStats& s) { return s.epoch_s == acc.epoch_s; });
        if (it == m_closed.rend()) {
            m_closed.push_back(SecondStats{acc.epoch_s});
            it = m_closed.rbegin();
        }
        it->count += acc.count;
        it->failures += acc.failures;
        it->skipped += acc.skipped;
        it->latency_sum_us += acc.latency_sum_us;
        it->latency_max_us = std::max(it->latency_max_us, acc.histogram.max());
        return;
    }
    open.used = true;
    open.stats.epoch_s = acc.epoch_s;
    open.stats.count += acc.count;
    open.stats.failures += acc.failures;
    open.stats.skipped += acc.skipped;
    open.stats.latency_sum_us += acc.latency_sum_us;
    open.histogram.merge(acc.histogram);
}

std::vector<SecondStats> TimeSeriesCollector::finish() {
    const std::lock_guard lock(m_mutex);
    for (Open& open : m_open) {
        if (open.used) {
            close(open);
        }
    }
    std::sort(m_closed.begin(), m_closed.end(),
              [](const SecondStats& a, const SecondStats& b) { return a.epoch_s < b.epoch_s; });
    std::vector<SecondStats> out;
    if (m_closed.empty()) {
        return out;
    }
    out.reserve(static_cast<size_t>(m_closed.back().epoch_s - m_closed.front().epoch_s + 1));
    for (const SecondStats& s : m_closed) {
        while (!out.empty() && out.back().epoch_s + 1 < s.epoch_s) {
            out.push_back(SecondStats{out.back().epoch_s + 1});
        }
        if (!out.empty() && out.back().epoch_s == s.epoch_s) {
            out.back().add(s); // a very late report summarised separately
        } else {
            out.push_back(s);
        }
    }
    m_closed.clear();
    return out;
}

} // namespace pglab::bench
