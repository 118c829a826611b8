// printf-style formatting as PostgreSQL's own snprintf does it (src/port/snprintf.c), which
// pgbench's report and progress lines go through: identical to C printf except that a NaN is
// printed "NaN" and infinities "Infinity"/"-Infinity" (C prints "nan"/"-nan"/"inf").
#pragma once

#include <string>

namespace pglab::stats {

/// Formats like vsnprintf with C conversions d, i, u, ld, lld, lu, llu, f, e, g, s, c, %, and
/// flags/width/precision, except that a non-finite double argument prints as PostgreSQL does
/// ("NaN", "Infinity", "-Infinity", "+Infinity" with '+'), padded to the width with spaces
/// (never zeros). `*` widths are not supported (the formats are pgbench's, all literal).
std::string pg_format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

/// Appends pg_format()'s result to `out`.
void pg_append(std::string& out, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

} // namespace pglab::stats
