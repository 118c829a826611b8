// lab/experiment: duration parsing.
#include "lab/experiment/duration.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

namespace pglab::lab::experiment {

namespace {

/// Milliseconds (with a fraction) for the forms of parse_duration_ms, and "us" when
/// `allow_us`; nullopt otherwise.
std::optional<double> duration_ms(std::string_view text, bool allow_us) {
    std::size_t end = 0;
    while (end < text.size() && ((text[end] >= '0' && text[end] <= '9') || text[end] == '.')) {
        ++end;
    }
    if (end == 0) {
        return std::nullopt;
    }
    double number = 0;
    const auto r = std::from_chars(text.data(), text.data() + end, number);
    if (r.ec != std::errc() || r.ptr != text.data() + end) {
        return std::nullopt;
    }
    std::string_view unit = text.substr(end);
    if (!unit.empty() && unit.front() == ' ') {
        unit.remove_prefix(1);
    }
    double factor = 0;
    if (allow_us && unit == "us") {
        factor = 0.001;
    } else if (unit.empty() || unit == "s") {
        factor = 1000;
    } else if (unit == "ms") {
        factor = 1;
    } else if (unit == "min") {
        factor = 60'000;
    } else if (unit == "h") {
        factor = 3'600'000;
    } else {
        return std::nullopt;
    }
    constexpr double k_max_ms = 366.0 * 24 * 3'600'000;
    const double ms = number * factor;
    if (!std::isfinite(ms) || ms < 0 || ms > k_max_ms) {
        return std::nullopt;
    }
    return ms;
}

} // namespace

std::optional<std::int64_t> parse_duration_ms(std::string_view text) {
    const std::optional<double> ms = duration_ms(text, false);
    return ms ? std::optional<std::int64_t>(std::llround(*ms)) : std::nullopt;
}

std::optional<std::int64_t> parse_duration_us(std::string_view text) {
    const std::optional<double> ms = duration_ms(text, true);
    return ms ? std::optional<std::int64_t>(std::llround(*ms * 1000)) : std::nullopt;
}

std::optional<std::uint64_t> parse_size_bytes(std::string_view text) {
    std::size_t end = 0;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') {
        ++end;
    }
    std::uint64_t number = 0;
    const auto r = std::from_chars(text.data(), text.data() + end, number);
    if (end == 0 || r.ec != std::errc() || r.ptr != text.data() + end) {
        return std::nullopt;
    }
    std::string_view unit = text.substr(end);
    if (!unit.empty() && unit.front() == ' ') {
        unit.remove_prefix(1);
    }
    // PostgreSQL's memory units (1024-based, case as postgresql.conf writes them).
    constexpr std::pair<std::string_view, int> k_units[] = {{"", 0},    {"B", 0},   {"kB", 10},
                                                            {"MB", 20}, {"GB", 30}, {"TB", 40}};
    for (const auto& [name, shift] : k_units) {
        if (unit == name) {
            if (shift > 0 && number > (UINT64_MAX >> shift)) {
                return std::nullopt;
            }
            return number << shift;
        }
    }
    return std::nullopt;
}

} // namespace pglab::lab::experiment
