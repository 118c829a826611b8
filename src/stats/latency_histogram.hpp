// A log-linear latency histogram in the HdrHistogram manner: values are int64 microseconds,
// about 3 significant digits from 1 µs to more than one hour, fixed memory, no allocation when
// recording, mergeable, with a lossless serialised form (for JSON export and several hosts).
#pragma once

#include "stats/log_linear_slots.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pglab::stats {

/// Layout (HdrHistogram with lowest value 1 and 2048 sub-buckets): values below 2048 have a
/// slot each; above, bucket b >= 1 covers [1024 << b, 2048 << b) in 1024 slots of width 2^b,
/// so a slot is never wider than 1/1024 of its values (relative error <= 0.098%).
/// Invariants: count() = sum of all slots; min() <= every recorded value <= max() (exact,
/// after clamping); mean and stddev come from exact running sums, not from the slots.
/// Not thread-safe: each worker owns its histograms and they are merged after the run.
class LatencyHistogram {
public:
    /// Largest value recorded in its own slot; larger values are clamped to it (and counted in
    /// `clamped()`). About 19 hours, so at least one hour.
    static constexpr int64_t k_max_value_us = int64_t{1} << 36;

    /// Slots per power of two in the first bucket; sets the precision (3 digits).
    static constexpr int64_t k_sub_bucket_count = 2048;
    using Slots = LogLinearSlots<11>;
    static_assert(Slots::k_sub_bucket_count == k_sub_bucket_count);

    /// Allocates every slot (about 220 KiB) once; nothing allocates afterwards except
    /// serialize() and buckets().
    LatencyHistogram();

    /// Records one value in µs (negative values count as 0, values above k_max_value_us as
    /// k_max_value_us). Constant time, no allocation.
    void record(int64_t value_us) { record_n(value_us, 1); }

    /// Records `n` (>= 1) occurrences of `value_us`, as record() does.
    void record_n(int64_t value_us, int64_t n) {
        const int64_t v = std::clamp<int64_t>(value_us, 0, k_max_value_us);
        m_clamped += value_us > k_max_value_us ? n : 0;
        m_counts[slot_of(v)] += n;
        m_count += n;
        m_min = std::min(m_min, v);
        m_max = std::max(m_max, v);
        const auto d = static_cast<double>(v);
        const auto dn = static_cast<double>(n);
        m_sum += d * dn;
        m_sum2 += d * d * dn;
    }

    /// Adds every count of `other` (same layout, so no value is dropped).
    void merge(const LatencyHistogram& other);

    /// Forgets every value; keeps the memory.
    void reset();

    int64_t count() const { return m_count; }

    /// Smallest recorded value (exact), 0 when empty.
    int64_t min() const { return m_count > 0 ? m_min : 0; }

    /// Largest recorded value (exact, after clamping), 0 when empty.
    int64_t max() const { return m_count > 0 ? m_max : 0; }

    /// Arithmetic mean in µs, 0 when empty.
    double mean() const;

    /// Population standard deviation in µs, 0 when empty.
    double stddev() const;

    double sum() const { return m_sum; }

    double sum2() const { return m_sum2; }

    /// The value at `percentile` (0..100): the smallest recorded value v such that at least
    /// `percentile`% of values are <= v, with rank round(percentile/100 * count) (at least 1)
    /// as HdrHistogram does. Reported as the highest value equivalent to v's slot (so at most
    /// 0.1% above v), but never above max() nor below min(). 0 when empty.
    int64_t value_at_percentile(double percentile) const;

    /// How many recorded values were above k_max_value_us.
    int64_t clamped() const { return m_clamped; }

    /// Non-empty slots as (highest value equivalent to the slot in µs, count), ascending.
    std::vector<std::pair<int64_t, int64_t>> buckets() const;

    /// Lossless text form: "pglab.hist/1 count=N min=A max=B sum=S sum2=Q clamped=C
    /// slots=v1:c1,v2:c2,..." where vi is the highest value of a non-empty slot (ascending)
    /// and sums are shortest round-trip decimals. parse() rebuilds an identical histogram.
    std::string serialize() const;

    /// Parses serialize()'s form into `out` (reset first). False (with `out` reset) when the
    /// text is malformed or inconsistent (counts not matching `count`, values out of range).
    static bool parse(std::string_view text, LatencyHistogram& out);

    /// Index of the slot holding `value_us` (0 <= value_us <= k_max_value_us).
    static size_t slot_of(int64_t value_us) { return Slots::slot_of(value_us); }

    /// Lowest value that falls in slot `slot`.
    static int64_t slot_lowest_value(size_t slot) { return Slots::lowest_value(slot); }

    /// Highest value that falls in slot `slot`.
    static int64_t slot_highest_value(size_t slot) { return Slots::highest_value(slot); }

    /// Number of slots (index of k_max_value_us's slot + 1).
    static size_t slot_count() { return slot_of(k_max_value_us) + 1; }

private:
    std::vector<int64_t> m_counts;
    int64_t m_count = 0;
    int64_t m_min = INT64_MAX;
    int64_t m_max = 0;
    int64_t m_clamped = 0;
    double m_sum = 0;
    double m_sum2 = 0;
};

} // namespace pglab::stats
