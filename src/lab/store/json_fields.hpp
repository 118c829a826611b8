// lab/store: reading the fields of plan.json and results.jsonl objects, for the store's
// serialisers only: everything else sees typed records. A field of another type than the format
// gives reads as absent, never as an exception.
#pragma once

#include "util/result.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace pglab::lab::store::fields {

using nlohmann::json;

/// The text of `j[key]`, none when absent or not a string.
std::optional<std::string> optional_text(const json& j, const char* key);

/// The text of `j[key]`, "" when absent, null or not a string.
std::string text(const json& j, const char* key);

/// The integer of `j[key]`, none when absent or not an integer.
std::optional<std::int64_t> integer(const json& j, const char* key);

/// The number of `j[key]` (integer or not), none when absent or not a number.
std::optional<double> number(const json& j, const char* key);

/// The unsigned integer of `j[key]` (a seed), none when absent or not one.
std::optional<std::uint64_t> unsigned_integer(const json& j, const char* key);

/// `j[key]` when it is a boolean, else `fallback`.
bool boolean(const json& j, const char* key, bool fallback);

/// The strings of the array `j[key]` (other items left out); empty when it is not an array.
std::vector<std::string> texts(const json& j, const char* key);

/// The strings of `j[key]` when it is an array (other items left out), else none.
std::optional<std::vector<std::string>> optional_texts(const json& j, const char* key);

/// `j[key]` when present, else null (a reference: sub-documents are not copied).
const json& value(const json& j, const char* key);

/// null for "", else the text.
json text_or_null(const std::string& s);

/// null for none, else the number.
json number_or_null(const std::optional<double>& n);

/// null for none, else the integer.
json integer_or_null(const std::optional<std::int64_t>& n);

/// The JSON types a field of the format may have.
enum class Kind : std::uint8_t { text, number, integer, unsigned_integer, boolean, object, array };

/// A field and its type; `nullable`: null is also allowed.
struct FieldType {
    const char* key;
    Kind kind;
    bool nullable = false;
};

/// Error naming the first field of `types` that `j` has with another type ("\"repetition\" is a
/// string, not an unsigned integer"); absent fields are not checked.
Status check_types(const json& j, std::span<const FieldType> types);

/// null for 0 or less (unknown), else the count.
json count_or_null(std::int64_t n);

} // namespace pglab::lab::store::fields
