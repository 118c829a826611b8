// A small fixed-size latency histogram for short intervals (one second of the time series):
// about 3% precision from 1 µs to 2^36 µs in 4 KiB, mergeable, no allocation at all.
#pragma once

#include "stats/log_linear_slots.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace pglab::stats {

/// LatencyHistogram's log-linear layout with 64 sub-buckets instead of 2048: values below 64 µs
/// have a slot each; above, bucket b >= 1 covers [32 << b, 64 << b) in 32 slots of width 2^b,
/// so a slot is never wider than 1/32 of its values (relative error <= 3.2%). Values are int64
/// microseconds. Invariant: count() = sum of the slots. Not thread-safe.
class CoarseHistogram {
public:
    /// Largest value with its own slot; larger values are recorded as this.
    static constexpr int64_t k_max_value_us = int64_t{1} << 36;

    /// Number of slots (index of k_max_value_us's slot + 1).
    static constexpr size_t k_slots = 1025;

    using Slots = LogLinearSlots<6>;
    static_assert(Slots::slot_of(k_max_value_us) + 1 == k_slots);

    /// Records one value (negative as 0, above k_max_value_us as k_max_value_us).
    void record(int64_t value_us) {
        const int64_t v = std::clamp<int64_t>(value_us, 0, k_max_value_us);
        ++m_counts[slot_of(v)];
        ++m_count;
        m_max = std::max(m_max, v);
    }

    /// Adds every count of `other`.
    void merge(const CoarseHistogram& other);

    /// Forgets every value.
    void reset();

    int64_t count() const { return m_count; }

    /// Largest recorded value (exact after clamping), 0 when empty.
    int64_t max() const { return m_max; }

    /// The value at `percentile` (0..100) with LatencyHistogram's rule (rank
    /// round(p/100 * count), at least 1), as the highest value of its slot but never above
    /// max(). 0 when empty.
    int64_t value_at_percentile(double percentile) const;

    /// Index of the slot holding `value_us` (0 <= value_us <= k_max_value_us).
    static size_t slot_of(int64_t value_us) { return Slots::slot_of(value_us); }

    /// Highest value that falls in slot `slot`.
    static int64_t slot_highest_value(size_t slot) { return Slots::highest_value(slot); }

private:
    std::array<uint32_t, k_slots> m_counts{};
    int64_t m_count = 0;
    int64_t m_max = 0;
};

} // namespace pglab::stats
