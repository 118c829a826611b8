// lab/experiment: one value written in an experiment file (a matrix value, a setting): integer,
// float, boolean or string, with where it was written and the text forms the lab passes on. No I/O.
#pragma once

#include "lab/experiment/source_pos.hpp"

#include <cstdint>
#include <string>
#include <variant>

namespace pglab::lab::experiment {

/// A TOML scalar. Dates and times are not accepted anywhere in an experiment file.
struct Scalar {
    std::variant<std::int64_t, double, bool, std::string> value;
    SourcePos pos;

    bool is_integer() const { return std::holds_alternative<std::int64_t>(value); }

    bool is_float() const { return std::holds_alternative<double>(value); }

    bool is_number() const { return is_integer() || is_float(); }

    bool is_bool() const { return std::holds_alternative<bool>(value); }

    bool is_string() const { return std::holds_alternative<std::string>(value); }

    /// The number as a double (integers converted); 0 for other kinds.
    double as_double() const;

    /// The text substituted for `${name}` and passed in options: integers in decimal, floats in
    /// the shortest form that reads back the same ("0.9", "2"), booleans "true"/"false",
    /// strings as they are.
    std::string text() const;

    /// The text for a postgresql.conf setting: as text(), except booleans are "on"/"off".
    std::string setting_text() const;

    /// "integer", "float", "boolean" or "string" (for messages).
    const char* kind_name() const;

    /// Same kind and same value (1 and 1.0 differ).
    bool operator==(const Scalar& other) const { return value == other.value; }
};

} // namespace pglab::lab::experiment
