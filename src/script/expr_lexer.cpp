// The expression lexer: flex's longest-match rules of pgbench's exprscan.l, written by hand.
#include "script/expr_lexer.hpp"

#include <strings.h>

#include <cerrno>
#include <cstdlib>

namespace pglab::script {

namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

bool is_alpha(unsigned char c) {
    return is_expr_alnum(c) && !(c >= '0' && c <= '9');
}

struct Keyword {
    std::string_view word;
    Tok kind;
    bool value;
};

constexpr Keyword k_keywords[] = {
    {"and", Tok::and_kw, false},       {"or", Tok::or_kw, false},
    {"not", Tok::not_kw, false},       {"is", Tok::is_kw, false},
    {"isnull", Tok::isnull_kw, false}, {"notnull", Tok::notnull_kw, false},
    {"case", Tok::case_kw, false},     {"when", Tok::when_kw, false},
    {"then", Tok::then_kw, false},     {"else", Tok::else_kw, false},
    {"end", Tok::end_kw, false},       {"true", Tok::boolean, true},
    {"false", Tok::boolean, false},    {"null", Tok::null_kw, false},
};

} // namespace

Token ExprLexer::make(Tok kind, size_t begin) {
    Token t;
    t.kind = kind;
    t.begin = begin;
    t.end = m_pos;
    t.text = m_src.substr(begin, m_pos - begin);
    return t;
}

Token ExprLexer::next() {
    m_pos = skip_blanks(m_src, m_pos, is_space);
    const size_t begin = m_pos;
    if (m_pos >= m_src.size()) {
        return make(Tok::end, begin);
    }
    const char c = m_src[m_pos];
    const char c2 = m_pos + 1 < m_src.size() ? m_src[m_pos + 1] : '\0';
    if (c == '\n') {
        ++m_pos;
        Token t = make(Tok::end, begin);
        t.newline = true;
        return t;
    }
    if (is_digit(c) || (c == '.' && is_digit(c2))) {
        return lex_number(begin);
    }
    if (is_alpha(static_cast<unsigned char>(c))) {
        return lex_word(begin);
    }
    if (c == ':' && is_expr_alnum(static_cast<unsigned char>(c2))) {
        ++m_pos;
        while (m_pos < m_src.size() && is_expr_alnum(static_cast<unsigned char>(m_src[m_pos]))) {
            ++m_pos;
        }
        Token t = make(Tok::variable, begin);
        t.text = t.text.substr(1);
        return t;
    }

    // Two-character operators first (longest match).
    struct TwoChar {
        char a, b;
        Tok kind;
    };

    static constexpr TwoChar k_two[] = {{'<', '>', Tok::ne},  {'!', '=', Tok::ne},
                                        {'<', '=', Tok::le},  {'>', '=', Tok::ge},
                                        {'<', '<', Tok::shl}, {'>', '>', Tok::shr}};
    for (const TwoChar& op : k_two) {
        if (c == op.a && c2 == op.b) {
            m_pos += 2;
            return make(op.kind, begin);
        }
    }
    Tok kind = Tok::error;
    switch (c) {
    case '+':
        kind = Tok::plus;
        break;
    case '-':
        kind = Tok::minus;
        break;
    case '*':
        kind = Tok::star;
        break;
    case '/':
        kind = Tok::slash;
        break;
    case '%':
        kind = Tok::percent;
        break;
    case '(':
        kind = Tok::lparen;
        break;
    case ')':
        kind = Tok::rparen;
        break;
    case ',':
        kind = Tok::comma;
        break;
    case '<':
        kind = Tok::lt;
        break;
    case '>':
        kind = Tok::gt;
        break;
    case '=':
        kind = Tok::eq;
        break;
    case '&':
        kind = Tok::bit_and;
        break;
    case '|':
        kind = Tok::bit_or;
        break;
    case '#':
        kind = Tok::bit_xor;
        break;
    case '~':
        kind = Tok::tilde;
        break;
    default:
        break;
    }
    ++m_pos;
    Token t = make(kind, begin);
    if (kind == Tok::error) {
        t.error = "unexpected character";
    }
    return t;
}

Token ExprLexer::lex_number(size_t begin) {
    const auto digits = [&] {
        while (m_pos < m_src.size() && is_digit(m_src[m_pos])) {
            ++m_pos;
        }
    };
    bool is_double = false;
    digits();
    if (m_pos < m_src.size() && m_src[m_pos] == '.') {
        ++m_pos;
        digits();
        is_double = true;
    }
    // Optional exponent, only if complete: [eE][-+]?[0-9]+
    if (m_pos < m_src.size() && (m_src[m_pos] == 'e' || m_src[m_pos] == 'E')) {
        size_t p = m_pos + 1;
        if (p < m_src.size() && (m_src[p] == '+' || m_src[p] == '-')) {
            ++p;
        }
        if (p < m_src.size() && is_digit(m_src[p])) {
            m_pos = p;
            digits();
            is_double = true;
        }
    }
    Token t = make(is_double ? Tok::real : Tok::integer, begin);
    const std::string text(t.text);
    char* end = nullptr;
    errno = 0;
    if (is_double) {
        t.dval = std::strtod(text.c_str(), &end);
        if (errno == ERANGE) {
            t.kind = Tok::error;
            t.error = "double constant overflow";
        }
    } else if (text == "9223372036854775808") {
        t.kind = Tok::maxint_plus_one;
    } else {
        t.ival = std::strtoll(text.c_str(), &end, 10);
        if (errno == ERANGE) {
            t.kind = Tok::error;
            t.error = "bigint constant overflow";
        }
    }
    return t;
}

Token ExprLexer::lex_word(size_t begin) {
    while (m_pos < m_src.size() && is_expr_alnum(static_cast<unsigned char>(m_src[m_pos]))) {
        ++m_pos;
    }
    Token t = make(Tok::function, begin);
    for (const Keyword& k : k_keywords) {
        if (k.word.size() == t.text.size()
            && strncasecmp(k.word.data(), t.text.data(), t.text.size()) == 0) {
            t.kind = k.kind;
            t.bval = k.value;
            break;
        }
    }
    return t;
}

std::size_t continuation_at(std::string_view s, std::size_t i) {
    if (i < s.size() && s[i] == '\\') {
        if (i + 1 < s.size() && s[i + 1] == '\n') {
            return 2;
        }
        if (i + 2 < s.size() && s[i + 1] == '\r' && s[i + 2] == '\n') {
            return 3;
        }
    }
    return 0;
}

} // namespace pglab::script
