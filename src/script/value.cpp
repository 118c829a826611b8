// Text rendering of expression values, as pgbench substitutes them (PostgreSQL's snprintf
// spelling).
#include "script/value.hpp"

#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace pglab::script {

void append_value_text(const Value& v, std::string& out) {
    char buf[64];
    int n = 0;
    switch (v.type) {
    case ValueType::null:
        out.append("NULL");
        return;
    case ValueType::boolean:
        out.append(v.u.b ? "true" : "false");
        return;
    case ValueType::integer: {
        // to_chars: the hot path of every substituted integer, ~10x cheaper than snprintf
        const auto r = std::to_chars(buf, buf + sizeof(buf), v.u.i);
        n = static_cast<int>(r.ptr - buf);
        break;
    }
    case ValueType::real:
        n = format_double(v.u.d, buf, sizeof(buf));
        break;
    }
    out.append(buf, static_cast<size_t>(n));
}

int format_double(double d, char* buf, size_t size) {
    // PostgreSQL's own snprintf spells the non-finite values this way.
    if (std::isnan(d)) {
        return std::snprintf(buf, size, "NaN");
    }
    if (std::isinf(d)) {
        return std::snprintf(buf, size, d < 0 ? "-Infinity" : "Infinity");
    }
    return std::snprintf(buf, size, "%.15g", d);
}

} // namespace pglab::script
