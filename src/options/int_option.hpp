// Numeric option values parsed exactly as pgbench 15 parses them (option_parse_int, atoi, atof,
// sscanf). Pure: no I/O.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <string_view>

namespace pglab::options {

/// PostgreSQL's option_parse_int(): strtol base 10 (leading blanks and a sign allowed), trailing
/// whitespace ignored. Errors (exit 1): `invalid value "ARG" for option NAME` when anything else
/// follows the number; `NAME must be in range MIN..MAX` when out of range or out of int (an empty
/// `arg` counts as 0, hence a range error, as in pgbench).
Result<int> parse_int_option(std::string_view arg, std::string_view name, int min, int max);

/// C's atoi(): the leading integer of `arg`, 0 when none; values beyond int wrap as pgbench's
/// `(int32) atoi()` does on glibc (strtol clamps to long, then the cast truncates).
int32_t c_atoi(std::string_view arg);

/// C's atof(): the leading floating-point number of `arg`, 0 when none (also "inf", "nan", hex).
double c_atof(std::string_view arg);

} // namespace pglab::options
