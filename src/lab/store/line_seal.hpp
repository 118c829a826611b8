// lab/store: the checksum every results.jsonl line carries (`crc32`, docs/results-format.md). A
// line changed after pglab wrote it, by a flipped byte that still parses or a digit edited by
// hand, is then found instead of read: nothing else could tell a damaged tps from a measured one.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace pglab::lab::store {

/// The key of the checksum in a line's object.
inline constexpr const char* k_seal_key = "crc32";

/// `line` as one line of results.jsonl (no newline): its object with `crc32` added, the CRC-32
/// (zlib's) of the object's compact text without it, as 8 hex digits.
std::string sealed_text(nlohmann::json line);

enum class Seal : std::uint8_t {
    absent, ///< a line pglab wrote before it sealed lines (or another program's)
    intact,
    broken, ///< the line is not what pglab wrote
};

/// Takes `crc32` out of the object `doc` and says whether it matches the rest (a `crc32` that is
/// not 8 hex digits is broken).
Seal open_seal(nlohmann::json& doc);

} // namespace pglab::lab::store
