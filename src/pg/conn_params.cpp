// Password redaction for conninfo strings and URIs, so connection strings can be logged.
#include "pg/conn_params.hpp"

#include <cctype>
#include <string_view>
#include <utility>
#include <vector>

namespace pglab::pg {

namespace {

using Range = std::pair<size_t, size_t>; ///< [begin, end) of a value to mask

bool is_space(char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

bool starts_with_uri_scheme(std::string_view s) {
    return s.starts_with("postgresql://") || s.starts_with("postgres://");
}

/// Ranges of `password` values in a `key = value ...` string (values bare or single-quoted
/// with backslash escapes, as libpq's conninfo_parse accepts them).
std::vector<Range> keyword_password_ranges(std::string_view s) {
    std::vector<Range> ranges;
    size_t i = 0;
    const size_t n = s.size();
    while (i < n) {
        while (i < n && is_space(s[i])) {
            ++i;
        }
        const size_t key_begin = i;
        while (i < n && s[i] != '=' && !is_space(s[i])) {
            ++i;
        }
        const std::string_view key = s.substr(key_begin, i - key_begin);
        while (i < n && is_space(s[i])) {
            ++i;
        }
        if (i >= n || s[i] != '=') {
            break; // malformed: libpq would reject it; leave the rest alone
        }
        ++i;
        while (i < n && is_space(s[i])) {
            ++i;
        }
        const size_t value_begin = i;
        if (i < n && s[i] == '\'') {
            ++i;
            while (i < n && s[i] != '\'') {
                if (s[i] == '\\' && i + 1 < n) {
                    ++i;
                }
                ++i;
            }
            if (i < n) {
                ++i; // closing quote
            }
        } else {
            while (i < n && !is_space(s[i])) {
                if (s[i] == '\\' && i + 1 < n) {
                    ++i;
                }
                ++i;
            }
        }
        if (key == "password" && i > value_begin) {
            ranges.emplace_back(value_begin, i);
        }
    }
    return ranges;
}

/// Ranges of the password in a URI's user info and in `password=` query parameters.
std::vector<Range> uri_password_ranges(std::string_view s) {
    std::vector<Range> ranges;
    const size_t authority = s.find("://") + 3;
    const size_t authority_end = s.find_first_of("/?", authority);
    const size_t host_part_end = authority_end == std::string_view::npos ? s.size() : authority_end;
    const size_t at = s.rfind('@', host_part_end == 0 ? 0 : host_part_end - 1);
    if (at != std::string_view::npos && at >= authority && at < host_part_end) {
        const size_t colon = s.find(':', authority);
        if (colon != std::string_view::npos && colon < at) {
            ranges.emplace_back(colon + 1, at);
        }
    }
    const size_t query = s.find('?', authority);
    if (query != std::string_view::npos) {
        size_t i = query + 1;
        while (i < s.size()) {
            size_t end = s.find('&', i);
            if (end == std::string_view::npos) {
                end = s.size();
            }
            const std::string_view param = s.substr(i, end - i);
            if (param.starts_with("password=")) {
                ranges.emplace_back(i + 9, end);
            }
            i = end + 1;
        }
    }
    return ranges;
}

} // namespace

std::string redact_conninfo(const std::string& conninfo) {
    const std::string_view s = conninfo;
    const std::vector<Range> ranges =
        starts_with_uri_scheme(s) ? uri_password_ranges(s) : keyword_password_ranges(s);
    std::string out;
    out.reserve(conninfo.size());
    size_t pos = 0;
    for (const auto& [begin, end] : ranges) {
        out.append(s.substr(pos, begin - pos));
        out.append(k_redacted_password);
        pos = end;
    }
    out.append(s.substr(pos));
    return out;
}

} // namespace pglab::pg
