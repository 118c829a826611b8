// The SQL splitter: a hand-written subset of psqlscan.l's rules with the same boundaries.
#include "script/sql_scanner.hpp"

#include <strings.h>

#include <cctype>

namespace pglab::script {

namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool is_ident_start(unsigned char c) {
    return c >= 0x80 || std::isalpha(c) != 0 || c == '_';
}

bool is_ident_cont(unsigned char c) {
    return is_ident_start(c) || (c >= '0' && c <= '9') || c == '$';
}

bool is_var_char(unsigned char c) {
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

bool word_is(std::string_view w, std::string_view kw) {
    return w.size() == kw.size() && strncasecmp(w.data(), kw.data(), w.size()) == 0;
}

} // namespace

void SqlScanner::append(std::string& out, size_t from, size_t to, size_t& first) {
    if (out.empty()) {
        first = from;
    }
    out.append(m_src.substr(from, to - from));
}

size_t SqlScanner::skip_quoted(size_t p, char quote, bool backslash_escapes) const {
    // p is just after the opening quote; returns the offset after the closing quote.
    while (p < m_src.size()) {
        const char c = m_src[p];
        if (backslash_escapes && c == '\\') {
            p += 2;
            continue;
        }
        if (c == quote) {
            if (p + 1 < m_src.size() && m_src[p + 1] == quote) {
                p += 2; // doubled quote
                continue;
            }
            return p + 1;
        }
        ++p;
    }
    return m_src.size();
}

size_t SqlScanner::dollar_quote_end(size_t p) const {
    // p is at '$'. Returns 0 when this is not a dollar-quote delimiter.
    size_t q = p + 1;
    if (q < m_src.size() && is_ident_start(static_cast<unsigned char>(m_src[q]))) {
        while (q < m_src.size() && is_var_char(static_cast<unsigned char>(m_src[q]))) {
            ++q;
        }
    }
    if (q >= m_src.size() || m_src[q] != '$') {
        return 0;
    }
    const std::string_view tag = m_src.substr(p, q + 1 - p);
    const size_t close = m_src.find(tag, q + 1);
    return close == std::string_view::npos ? m_src.size() : close + tag.size();
}

void SqlScanner::track_identifier(std::string_view word) {
    // psqlscan.l's heuristic for CREATE [OR REPLACE] FUNCTION|PROCEDURE ... BEGIN ... END:
    // semicolons inside such a body do not end the statement.
    if (m_identifier_count == 0) {
        for (char& c : m_identifiers) {
            c = 0;
        }
    }
    if (word_is(word, "create") || word_is(word, "function") || word_is(word, "procedure")
        || word_is(word, "or") || word_is(word, "replace")) {
        if (m_identifier_count < 4) {
            m_identifiers[m_identifier_count] =
                static_cast<char>(std::tolower(static_cast<unsigned char>(word[0])));
        }
    }
    ++m_identifier_count;
    const char* id = m_identifiers;
    const bool in_create = id[0] == 'c'
                           && (id[1] == 'f' || id[1] == 'p'
                               || (id[1] == 'o' && id[2] == 'r' && (id[3] == 'f' || id[3] == 'p')));
    if (in_create && m_paren_depth == 0) {
        if (word_is(word, "begin")) {
            ++m_begin_depth;
        } else if (word_is(word, "case")) {
            if (m_begin_depth >= 1) {
                ++m_begin_depth;
            }
        } else if (word_is(word, "end")) {
            if (m_begin_depth > 0) {
                --m_begin_depth;
            }
        }
    }
}

ScanStop SqlScanner::next(std::string& out, size_t& first) {
    const size_t n = m_src.size();
    while (m_pos < n) {
        const size_t p = m_pos;
        const char c = m_src[p];
        const char c2 = p + 1 < n ? m_src[p + 1] : '\0';
        if (is_space(c) || (c == '-' && c2 == '-')) {
            // Whitespace and "--" comments: kept only once the command has started.
            size_t q = p;
            if (c == '-') {
                while (q < n && m_src[q] != '\n') {
                    ++q;
                }
            } else {
                while (q < n && is_space(m_src[q])) {
                    ++q;
                }
            }
            if (!out.empty()) {
                append(out, p, q, first);
            }
            m_pos = q;
            continue;
        }
        if (c == '/' && c2 == '*') {
            int depth = 1;
            size_t q = p + 2;
            while (q < n && depth > 0) {
                if (m_src[q] == '/' && q + 1 < n && m_src[q + 1] == '*') {
                    ++depth;
                    q += 2;
                } else if (m_src[q] == '*' && q + 1 < n && m_src[q + 1] == '/') {
                    --depth;
                    q += 2;
                } else {
                    ++q;
                }
            }
            append(out, p, q, first);
            m_pos = q;
            continue;
        }
        if (c == '\'') {
            m_pos = skip_quoted(p + 1, '\'', false);
            append(out, p, m_pos, first);
            continue;
        }
        if (c == '"') {
            m_pos = skip_quoted(p + 1, '"', false);
            append(out, p, m_pos, first);
            continue;
        }
        if (c == '$') {
            size_t q = dollar_quote_end(p);
            if (q == 0) {
                // "$1" or a failed delimiter "$abc": one token
                q = p + 1;
                while (q < n && is_var_char(static_cast<unsigned char>(m_src[q]))) {
                    ++q;
                }
            }
            append(out, p, q, first);
            m_pos = q;
            continue;
        }
        if (c == '(' || c == ')') {
            if (c == '(') {
                ++m_paren_depth;
            } else if (m_paren_depth > 0) {
                --m_paren_depth;
            }
            append(out, p, p + 1, first);
            m_pos = p + 1;
            continue;
        }
        if (c == ';') {
            append(out, p, p + 1, first);
            m_pos = p + 1;
            if (m_paren_depth == 0 && m_begin_depth == 0) {
                m_identifier_count = 0;
                return ScanStop::semicolon;
            }
            continue;
        }
        if (c == '\\') {
            if (c2 == ';' || c2 == ':') {
                append(out, p + 1, p + 2, first); // "\;" and "\:" insert the bare character
                m_pos = p + 2;
                continue;
            }
            m_pos = p + 1;
            return ScanStop::backslash;
        }
        if (c == ':') {
            // psql variable forms are single tokens: ":name", ":'name'", ":\"name\"", "::".
            size_t q = p + 1;
            if (c2 == ':') {
                q = p + 2;
            } else if (c2 == '\'' || c2 == '"') {
                size_t r = p + 2;
                while (r < n && is_var_char(static_cast<unsigned char>(m_src[r]))) {
                    ++r;
                }
                if (r > p + 2 && r < n && m_src[r] == c2) {
                    q = r + 1;
                }
            } else {
                while (q < n && is_var_char(static_cast<unsigned char>(m_src[q]))) {
                    ++q;
                }
            }
            append(out, p, q, first);
            m_pos = q;
            continue;
        }
        if (is_ident_start(static_cast<unsigned char>(c))) {
            const char lc = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (c2 == '\'' && (lc == 'e' || lc == 'b' || lc == 'x' || lc == 'n')) {
                m_pos = skip_quoted(p + 2, '\'', lc == 'e');
                append(out, p, m_pos, first);
                continue;
            }
            if (lc == 'u' && c2 == '&' && p + 2 < n
                && (m_src[p + 2] == '\'' || m_src[p + 2] == '"')) {
                m_pos = skip_quoted(p + 3, m_src[p + 2], false);
                append(out, p, m_pos, first);
                continue;
            }
            size_t q = p + 1;
            while (q < n && is_ident_cont(static_cast<unsigned char>(m_src[q]))) {
                ++q;
            }
            track_identifier(m_src.substr(p, q - p));
            append(out, p, q, first);
            m_pos = q;
            continue;
        }
        if (c >= '0' && c <= '9') {
            size_t q = p + 1;
            while (q < n && ((m_src[q] >= '0' && m_src[q] <= '9') || m_src[q] == '.')) {
                ++q;
            }
            append(out, p, q, first);
            m_pos = q;
            continue;
        }
        append(out, p, p + 1, first);
        m_pos = p + 1;
    }
    return ScanStop::eof;
}

} // namespace pglab::script
