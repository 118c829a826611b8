// pg_format: walks the format once, hands each finite conversion to the C library and spells
// non-finite doubles the way PostgreSQL's fmtfloat() does.
#include "stats/pg_format.hpp"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace pglab::stats {

namespace {

/// Appends the result of snprintf(`spec`, value) to `out`; `spec` is one conversion.
template <class T>
void append_one(std::string& out, const std::string& spec, T value) {
    char buf[128];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    int n = std::snprintf(buf, sizeof buf, spec.c_str(), value);
    if (n >= static_cast<int>(sizeof buf)) {
        std::string big(static_cast<size_t>(n) + 1, '\0');
        std::snprintf(big.data(), big.size(), spec.c_str(), value);
        big.resize(static_cast<size_t>(n));
        out += big;
        return;
    }
#pragma GCC diagnostic pop
    if (n > 0) {
        out.append(buf, static_cast<size_t>(n));
    }
}

/// PostgreSQL's spelling of a non-finite double, padded to `width` (left-justified with '-').
void append_non_finite(std::string& out, double v, bool plus, bool left, int width) {
    std::string_view text;
    if (std::isnan(v)) {
        text = "NaN";
    } else if (v > 0) {
        text = plus ? "+Infinity" : "Infinity";
    } else {
        text = "-Infinity";
    }
    const size_t w = width > 0 ? static_cast<size_t>(width) : 0;
    const size_t pad = w > text.size() ? w - text.size() : 0;
    if (!left) {
        out.append(pad, ' ');
    }
    out += text;
    if (left) {
        out.append(pad, ' ');
    }
}

void vappend(std::string& out, const char* fmt, va_list ap) {
    const char* p = fmt;
    while (*p != '\0') {
        if (*p != '%') {
            const char* q = std::strchr(p, '%');
            const size_t len = q != nullptr ? static_cast<size_t>(q - p) : std::strlen(p);
            out.append(p, len);
            p += len;
            continue;
        }
        const char* start = p++;
        if (*p == '%') {
            out += '%';
            ++p;
            continue;
        }
        bool plus = false;
        bool left = false;
        while (*p != '\0' && std::strchr("-+ #0", *p) != nullptr) {
            plus = plus || *p == '+';
            left = left || *p == '-';
            ++p;
        }
        int width = 0;
        while (*p >= '0' && *p <= '9') {
            width = width * 10 + (*p++ - '0');
        }
        if (*p == '.') {
            ++p;
            while (*p >= '0' && *p <= '9') {
                ++p;
            }
        }
        int longs = 0;
        while (*p == 'l') {
            ++longs;
            ++p;
        }
        const char conv = *p;
        if (conv == '\0') {
            out.append(start); // a dangling '%': print as is
            return;
        }
        ++p;
        const std::string spec(start, static_cast<size_t>(p - start));
        switch (conv) {
        case 'd':
        case 'i':
            if (longs >= 2) {
                append_one(out, spec, va_arg(ap, long long));
            } else if (longs == 1) {
                append_one(out, spec, va_arg(ap, long));
            } else {
                append_one(out, spec, va_arg(ap, int));
            }
            break;
        case 'u':
        case 'x':
        case 'X':
            if (longs >= 2) {
                append_one(out, spec, va_arg(ap, unsigned long long));
            } else if (longs == 1) {
                append_one(out, spec, va_arg(ap, unsigned long));
            } else {
                append_one(out, spec, va_arg(ap, unsigned int));
            }
            break;
        case 'f':
        case 'e':
        case 'g': {
            const double v = va_arg(ap, double);
            if (std::isfinite(v)) {
                append_one(out, spec, v);
            } else {
                append_non_finite(out, v, plus, left, width);
            }
            break;
        }
        case 's':
            append_one(out, spec, va_arg(ap, const char*));
            break;
        case 'c':
            append_one(out, spec, va_arg(ap, int));
            break;
        default:
            out.append(spec); // unsupported conversion: visible in tests, never crashes
            break;
        }
    }
}

} // namespace

std::string pg_format(const char* fmt, ...) {
    std::string out;
    va_list ap;
    va_start(ap, fmt);
    vappend(out, fmt, ap);
    va_end(ap);
    return out;
}

void pg_append(std::string& out, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vappend(out, fmt, ap);
    va_end(ap);
}

} // namespace pglab::stats
