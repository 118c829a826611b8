// LatencyHistogram: queries, merge and the lossless text form. Recording is inline in the
// header (the hot path).
#include "stats/latency_histogram.hpp"

#include "stats/simple_stats.hpp"

#include <fmt/format.h>

#include <charconv>

namespace pglab::stats {

namespace {

constexpr std::string_view k_magic = "pglab.hist/1";

/// Parses an int64 from `s` (whole string). False on junk or overflow.
bool parse_i64(std::string_view s, int64_t& out) {
    const auto* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && p == end;
}

bool parse_f64(std::string_view s, double& out) {
    const auto* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && p == end;
}

/// Splits off the next `sep`-terminated field of `s`.
std::string_view next_field(std::string_view& s, char sep) {
    const size_t pos = s.find(sep);
    std::string_view field = s.substr(0, pos);
    s = pos == std::string_view::npos ? std::string_view{} : s.substr(pos + 1);
    return field;
}

/// Reads "key=value" from `s` into `value`. False when the key differs.
bool read_key(std::string_view& s, std::string_view key, std::string_view& value) {
    std::string_view field = next_field(s, ' ');
    if (field.size() <= key.size() || field.substr(0, key.size()) != key
        || field[key.size()] != '=') {
        return false;
    }
    value = field.substr(key.size() + 1);
    return true;
}

} // namespace

LatencyHistogram::LatencyHistogram() : m_counts(slot_count(), 0) {}

void LatencyHistogram::merge(const LatencyHistogram& other) {
    if (other.m_count == 0) {
        return;
    }
    for (size_t i = 0; i < m_counts.size(); ++i) {
        m_counts[i] += other.m_counts[i];
    }
    m_count += other.m_count;
    m_min = std::min(m_min, other.m_min);
    m_max = std::max(m_max, other.m_max);
    m_clamped += other.m_clamped;
    m_sum += other.m_sum;
    m_sum2 += other.m_sum2;
}

void LatencyHistogram::reset() {
    std::fill(m_counts.begin(), m_counts.end(), 0);
    m_count = 0;
    m_min = INT64_MAX;
    m_max = 0;
    m_clamped = 0;
    m_sum = 0;
    m_sum2 = 0;
}

double LatencyHistogram::mean() const {
    return m_count > 0 ? m_sum / static_cast<double>(m_count) : 0.0;
}

double LatencyHistogram::stddev() const {
    return population_stddev(m_count, m_sum, m_sum2);
}

int64_t LatencyHistogram::value_at_percentile(double percentile) const {
    if (m_count == 0) {
        return 0;
    }
    const double p = std::clamp(percentile, 0.0, 100.0);
    // HdrHistogram's rank: nearest integer to p% of the count, at least the first value.
    auto rank = static_cast<int64_t>(p / 100.0 * static_cast<double>(m_count) + 0.5);
    rank = std::clamp<int64_t>(rank, 1, m_count);
    int64_t seen = 0;
    for (size_t i = 0; i < m_counts.size(); ++i) {
        seen += m_counts[i];
        if (seen >= rank) {
            return std::clamp(slot_highest_value(i), m_min, m_max);
        }
    }
    return m_max; // unreachable while count() equals the sum of the slots
}

std::vector<std::pair<int64_t, int64_t>> LatencyHistogram::buckets() const {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (size_t i = 0; i < m_counts.size(); ++i) {
        if (m_counts[i] != 0) {
            out.emplace_back(slot_highest_value(i), m_counts[i]);
        }
    }
    return out;
}

std::string LatencyHistogram::serialize() const {
    std::string out =
        fmt::format("{} count={} min={} max={} sum={} sum2={} clamped={} slots=", k_magic, m_count,
                    min(), max(), m_sum, m_sum2, m_clamped);
    bool first = true;
    for (size_t i = 0; i < m_counts.size(); ++i) {
        if (m_counts[i] != 0) {
            fmt::format_to(std::back_inserter(out), "{}{}:{}", first ? "" : ",",
                           slot_highest_value(i), m_counts[i]);
            first = false;
        }
    }
    return out;
}

bool LatencyHistogram::parse(std::string_view text, LatencyHistogram& out) {
    out.reset();
    auto fail = [&out] {
        out.reset();
        return false;
    };
    std::string_view s = text;
    if (next_field(s, ' ') != k_magic) {
        return fail();
    }
    std::string_view v;
    int64_t count = 0;
    int64_t min_v = 0;
    int64_t max_v = 0;
    int64_t clamped = 0;
    double sum = 0;
    double sum2 = 0;
    if (!read_key(s, "count", v) || !parse_i64(v, count) || count < 0 || !read_key(s, "min", v)
        || !parse_i64(v, min_v) || !read_key(s, "max", v) || !parse_i64(v, max_v)
        || !read_key(s, "sum", v) || !parse_f64(v, sum) || !read_key(s, "sum2", v)
        || !parse_f64(v, sum2) || !read_key(s, "clamped", v) || !parse_i64(v, clamped)
        || clamped < 0 || clamped > count) {
        return fail();
    }
    constexpr std::string_view k_slots = "slots=";
    if (s.substr(0, k_slots.size()) != k_slots) {
        return fail();
    }
    s.remove_prefix(k_slots.size());
    if (!s.empty() && s.back() == ',') {
        return fail();
    }
    int64_t total = 0;
    int64_t last_value = -1;
    while (!s.empty()) {
        std::string_view pair = next_field(s, ',');
        std::string_view value_text = next_field(pair, ':');
        int64_t value = 0;
        int64_t n = 0;
        if (!parse_i64(value_text, value) || !parse_i64(pair, n) || value <= last_value || value < 0
            || value > slot_highest_value(slot_count() - 1) || n <= 0 || n > count - total) {
            return fail();
        }
        out.m_counts[slot_of(std::min(value, k_max_value_us))] += n;
        total += n;
        last_value = value;
    }
    if (total != count || (count > 0 && (min_v < 0 || min_v > max_v || max_v > k_max_value_us))) {
        return fail();
    }
    out.m_count = count;
    out.m_min = count > 0 ? min_v : INT64_MAX;
    out.m_max = count > 0 ? max_v : 0;
    out.m_clamped = clamped;
    out.m_sum = sum;
    out.m_sum2 = sum2;
    return true;
}

} // namespace pglab::stats
