// Splits script text into SQL commands the way psql's lexer (psqlscan.l) does for pgbench:
// quotes, dollar quotes, comments, parentheses, BEGIN ... END bodies, `\;` and `\:`.
// Pure: offsets and strings only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pglab::script {

/// Why SqlScanner::next() returned.
enum class ScanStop : uint8_t {
    semicolon, ///< a top-level ';' ended the command (it is included in the text)
    backslash, ///< a backslash command starts at pos() - 1
    eof,       ///< end of input
};

/// psql's SQL lexer reduced to what splitting needs (SQL_ASCII, standard_conforming_strings on).
class SqlScanner {
public:
    explicit SqlScanner(std::string_view src) : m_src(src) {}

    /// Appends the next piece of SQL text to `out` (leading whitespace and "--" comments are
    /// dropped while `out` is empty, as psql does) and says where it stopped. `first` gets the
    /// source offset of the first byte appended, if any.
    ScanStop next(std::string& out, size_t& first);

    size_t pos() const { return m_pos; }

    void set_pos(size_t p) { m_pos = p; }

private:
    void append(std::string& out, size_t from, size_t to, size_t& first);
    size_t skip_quoted(size_t p, char quote, bool backslash_escapes) const;
    size_t dollar_quote_end(size_t p) const;
    void track_identifier(std::string_view word);

    std::string_view m_src;
    size_t m_pos = 0;
    int m_paren_depth = 0;
    int m_begin_depth = 0;
    int m_identifier_count = 0;
    char m_identifiers[4] = {0, 0, 0, 0};
};

} // namespace pglab::script
