// lab/spec: duration parsing.
#include "lab/spec/duration.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace pglab::lab::spec {

std::optional<std::int64_t> parse_duration_ms(std::string_view text) {
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
    if (unit.empty() || unit == "s") {
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
    return static_cast<std::int64_t>(std::llround(ms));
}

} // namespace pglab::lab::spec
