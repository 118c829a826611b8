// lab/experiment: durations in experiment files ("500ms", "10s", "2min", "1h", or a number of
// seconds) and sizes ("512MB", or a number of bytes).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace pglab::lab::experiment {

/// Milliseconds for "<number><unit>" with unit ms, s, min or h (a space before the unit is
/// allowed; the number may have a fraction: "1.5s"), or a bare number of seconds. nullopt for
/// anything else, negative values, or more than a year.
std::optional<std::int64_t> parse_duration_ms(std::string_view text);

/// Microseconds for the same forms and "<number>us": sync_delay = "500us" or "2ms".
std::optional<std::int64_t> parse_duration_us(std::string_view text);

/// Bytes for "<integer>" or "<integer><unit>" with unit B, kB, MB, GB or TB (1024-based, as
/// PostgreSQL's memory settings; a space before the unit is allowed). nullopt for anything else
/// or an overflow.
std::optional<std::uint64_t> parse_size_bytes(std::string_view text);

} // namespace pglab::lab::experiment
