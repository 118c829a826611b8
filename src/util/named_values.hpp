// Enumerations and their names, written once: a table of {value, name} pairs serves both ways
// (a value's name for output, a name's value for input) and lists the names for hints.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace pglab::util {

/// The name of `value` in a table of {value, name} pairs; "?" when it is not there.
template <typename Table, typename Value>
constexpr const char* name_of(const Table& table, Value value) {
    for (const auto& [v, name] : table) {
        if (v == value) {
            return name;
        }
    }
    return "?";
}

/// The value named `name` in a table of {value, name} pairs; none when it is not there.
template <typename Table>
constexpr auto value_named(const Table& table, std::string_view name)
    -> std::optional<std::decay_t<decltype(std::begin(table)->first)>> {
    for (const auto& [v, n] : table) {
        if (name == n) {
            return v;
        }
    }
    return std::nullopt;
}

/// Every name of the table, in its order.
template <typename Table>
std::vector<std::string> names_of(const Table& table) {
    std::vector<std::string> out;
    for (const auto& entry : table) {
        out.emplace_back(entry.second);
    }
    return out;
}

} // namespace pglab::util
