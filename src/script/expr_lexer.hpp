// Tokens of the \set / \if expression language (pgbench's exprscan.l, EXPR state).
// Pure: works on offsets into the script text; no allocation except for names and errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pglab::script {

enum class Tok : uint8_t {
    end, ///< newline or end of input: the expression ends
    error,
    integer,
    maxint_plus_one, ///< "9223372036854775808", only valid after unary minus
    real,
    variable,
    function,
    null_kw,
    boolean,
    and_kw,
    or_kw,
    not_kw,
    is_kw,
    isnull_kw,
    notnull_kw,
    case_kw,
    when_kw,
    then_kw,
    else_kw,
    end_kw,
    plus,
    minus,
    star,
    slash,
    percent,
    lparen,
    rparen,
    comma,
    lt,
    gt,
    eq,
    le,
    ge,
    ne,
    bit_and,
    bit_or,
    bit_xor,
    tilde,
    shl,
    shr,
};

struct Token {
    Tok kind = Tok::end;
    size_t begin = 0;     ///< offset of the first byte
    size_t end = 0;       ///< offset after the last byte (after the newline for Tok::end)
    bool newline = false; ///< Tok::end produced by a newline (not by the end of input)
    int64_t ival = 0;
    double dval = 0.0;
    bool bval = false;
    std::string_view text;       ///< the token's bytes (name of a variable: without the colon)
    const char* error = nullptr; ///< Tok::error: "unexpected character", "... overflow"
};

/// Splits the expression part of a backslash line into tokens, skipping spaces and
/// backslash-newline continuations.
class ExprLexer {
public:
    ExprLexer(std::string_view src, size_t pos) : m_src(src), m_pos(pos) {}

    Token next();

    size_t pos() const { return m_pos; }

private:
    Token make(Tok kind, size_t begin);
    Token lex_number(size_t begin);
    Token lex_word(size_t begin);

    std::string_view m_src;
    size_t m_pos;
};

/// Length of a line continuation ("\\\n" or "\\\r\n") at `i` of `s`, 0 if there is none:
/// exprscan.l skips them between words and inside expressions alike.
std::size_t continuation_at(std::string_view s, std::size_t i);

/// The position of the first character from `pos` on that is neither a blank (`is_blank`) nor
/// part of a line continuation.
template <typename IsBlank>
std::size_t skip_blanks(std::string_view s, std::size_t pos, IsBlank is_blank) {
    while (pos < s.size()) {
        if (is_blank(s[pos])) {
            ++pos;
        } else if (const std::size_t n = continuation_at(s, pos); n > 0) {
            pos += n;
        } else {
            break;
        }
    }
    return pos;
}

/// Bytes that may form variable and function names: ASCII letters, digits, '_', bytes >= 0x80.
inline bool is_expr_alnum(unsigned char c) {
    return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
           || (c >= '0' && c <= '9');
}

} // namespace pglab::script
