#include "stats/coarse_histogram.hpp"

#include <cmath>

namespace pglab::stats {

void CoarseHistogram::merge(const CoarseHistogram& other) {
    for (size_t i = 0; i < k_slots; ++i) {
        m_counts[i] += other.m_counts[i];
    }
    m_count += other.m_count;
    m_max = std::max(m_max, other.m_max);
}

void CoarseHistogram::reset() {
    m_counts.fill(0);
    m_count = 0;
    m_max = 0;
}

int64_t CoarseHistogram::value_at_percentile(double percentile) const {
    if (m_count == 0) {
        return 0;
    }
    const double p = std::clamp(percentile, 0.0, 100.0);
    const auto rank = std::max<int64_t>(1, std::llround(p / 100.0 * static_cast<double>(m_count)));
    int64_t seen = 0;
    for (size_t i = 0; i < k_slots; ++i) {
        seen += m_counts[i];
        if (seen >= rank) {
            return std::min(slot_highest_value(i), m_max);
        }
    }
    return m_max;
}

} // namespace pglab::stats
