// lab/store: reading the fields of plan.json and results.jsonl objects, for the store's
// serialisers only: everything else sees typed records. A field of another type than the format
// gives reads as absent, never as an exception.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::store::fields {

using nlohmann::json;

/// The text of `j[key]`, none when absent or not a string.
std::optional<std::string> optional_text(const json& j, const char* key);

/// The text of `j[key]`, "" when absent, null or not a string.
std::string text(const json& j, const char* key);

/// The integer of `j[key]`, none when absent or not an integer.
std::optional<std::int64_t> integer(const json& j, const char* key);

/// The unsigned integer of `j[key]` (a seed), none when absent or not one.
std::optional<std::uint64_t> unsigned_integer(const json& j, const char* key);

/// `j[key]` when it is a boolean, else `fallback`.
bool boolean(const json& j, const char* key, bool fallback);

/// The strings of the array `j[key]` (other items left out); empty when it is not an array.
std::vector<std::string> texts(const json& j, const char* key);

/// `j[key]` when present, else null.
json value(const json& j, const char* key);

/// null for "", else the text.
json text_or_null(const std::string& s);

/// null for 0 or less (unknown), else the count.
json count_or_null(std::int64_t n);

} // namespace pglab::lab::store::fields
