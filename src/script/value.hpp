// The four value types of pgbench's expression language and their text rendering.
// Pure: no libpq, no clock, no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace pglab::script {

enum class ValueType : uint8_t { null, boolean, integer, real };

/// A typed value of the expression language (pgbench's PgBenchValue).
struct Value {
    ValueType type = ValueType::null;

    union {
        bool b;
        int64_t i;
        double d;
    } u{};

    static Value null() { return Value{}; }

    static Value boolean(bool v) {
        Value x;
        x.type = ValueType::boolean;
        x.u.b = v;
        return x;
    }

    static Value integer(int64_t v) {
        Value x;
        x.type = ValueType::integer;
        x.u.i = v;
        return x;
    }

    static Value real(double v) {
        Value x;
        x.type = ValueType::real;
        x.u.d = v;
        return x;
    }
};

/// Appends the text pgbench substitutes for a defined variable holding `v`: NULL as "NULL",
/// booleans as "true"/"false", integers as %lld, doubles as %.15g with PostgreSQL's spelling
/// "Infinity", "-Infinity", "NaN". (An undefined variable has no text: see Variables.)
void append_value_text(const Value& v, std::string& out);

/// Writes `d` as pgbench prints doubles ("%.15g", "Infinity", "-Infinity", "NaN") into `buf`
/// (NUL-terminated) and returns the length; 32 bytes are always enough.
int format_double(double d, char* buf, size_t size);

} // namespace pglab::script
