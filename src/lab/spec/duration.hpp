// lab/spec: durations in experiment files ("500ms", "10s", "2min", "1h", or a number of seconds).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace pglab::lab::spec {

/// Milliseconds for "<number><unit>" with unit ms, s, min or h (a space before the unit is
/// allowed; the number may have a fraction: "1.5s"), or a bare number of seconds. nullopt for
/// anything else, negative values, or more than a year.
std::optional<std::int64_t> parse_duration_ms(std::string_view text);

} // namespace pglab::lab::spec
