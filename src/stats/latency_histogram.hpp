// A log-linear latency histogram in the HdrHistogram manner: values are int64 microseconds,
// about 3 significant digits from 1 µs to more than one hour, fixed memory, no allocation when
// recording, mergeable, with a lossless serialised form (for JSON export and several hosts).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pglab::stats {

class LatencyHistogram {
public:
    /// Largest value recorded exactly in its bucket; larger values are clamped to it (and
    /// counted in `clamped()`). At least one hour.
    static constexpr int64_t k_max_value_us = int64_t{1} << 36; // ~19 hours

    LatencyHistogram();

    /// Records one value in µs (negative values count as 0). Constant time, no allocation.
    void record(int64_t value_us) { record_n(value_us, 1); }

    void record_n(int64_t value_us, int64_t n);

    /// Adds every count of `other`.
    void merge(const LatencyHistogram& other);

    void reset();

    int64_t count() const { return m_count; }

    int64_t min() const;

    int64_t max() const;

    double mean() const;

    double stddev() const;

    /// The smallest recorded value v such that at least `percentile`% of values are <= v
    /// (reported as the highest value equivalent to v's bucket, as HdrHistogram does; exact
    /// min and max are tracked separately). 0 when empty.
    int64_t value_at_percentile(double percentile) const;

    int64_t clamped() const { return m_clamped; }

    /// Non-empty buckets as (bucket's highest equivalent value in µs, count), ascending.
    std::vector<std::pair<int64_t, int64_t>> buckets() const;

    /// Lossless text form: "v1:c1,v2:c2,..." over non-empty buckets by index; parse() rebuilds
    /// an identical histogram.
    std::string serialize() const;

    static bool parse(const std::string& text, LatencyHistogram& out);

private:
    std::vector<int64_t> m_counts;
    int64_t m_count = 0;
    int64_t m_min = 0;
    int64_t m_max = 0;
    int64_t m_clamped = 0;
    double m_sum = 0;
    double m_sum2 = 0;
};

} // namespace pglab::stats
