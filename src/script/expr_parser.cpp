// Precedence-climbing parser equivalent to pgbench's LALR grammar; errors are raised at the
// token where bison would raise them (lookahead read only when bison reads it).
#include "script/expr_parser.hpp"

#include "script/expr_lexer.hpp"

#include <strings.h>

#include <optional>

namespace pglab::script {

namespace {

/// Argument-count rules of pgbench's function table.
enum class Arity : int8_t { variable = -1, hash = -3, permute = -4 };

struct FuncInfo {
    std::string_view name;
    int nargs; ///< >= 0 exact count, else an Arity
    Func func;
};

constexpr FuncInfo k_functions[] = {
    {"abs", 1, Func::abs},
    {"least", static_cast<int>(Arity::variable), Func::least},
    {"greatest", static_cast<int>(Arity::variable), Func::greatest},
    {"debug", 1, Func::debug},
    {"pi", 0, Func::pi},
    {"sqrt", 1, Func::sqrt},
    {"ln", 1, Func::ln},
    {"exp", 1, Func::exp},
    {"int", 1, Func::int_},
    {"double", 1, Func::double_},
    {"random", 2, Func::random},
    {"random_gaussian", 3, Func::random_gaussian},
    {"random_exponential", 3, Func::random_exponential},
    {"random_zipfian", 3, Func::random_zipfian},
    {"pow", 2, Func::pow},
    {"power", 2, Func::pow},
    {"mod", 2, Func::mod},
    {"hash", static_cast<int>(Arity::hash), Func::hash_murmur2},
    {"hash_murmur2", static_cast<int>(Arity::hash), Func::hash_murmur2},
    {"hash_fnv1a", static_cast<int>(Arity::hash), Func::hash_fnv1a},
    {"permute", static_cast<int>(Arity::permute), Func::permute},
};

// Binding levels, lowest first (exprparse.y's %left/%right/%nonassoc lines).
constexpr int k_or = 1;
constexpr int k_and = 2;
constexpr int k_not = 3;
constexpr int k_is = 4;
constexpr int k_cmp = 5;
constexpr int k_bit = 6;
constexpr int k_add = 7;
constexpr int k_mul = 8;
constexpr int k_unary = 9;

/// pgbench's bison parser fails with "memory exhausted" when its stack would exceed YYMAXDEPTH
/// (10000) entries; with the initial state, 9998 pending symbols are the most it accepts (9996
/// nested parentheses around a constant). The parser counts the symbols bison would hold, which
/// also bounds the recursion of parsing, evaluating and destroying a tree.
constexpr int k_max_pending_symbols = 9998;

struct BinaryOp {
    int level = 0; ///< 0: not a binary operator
    Func func = Func::add;
    bool swap = false; ///< a > b is b < a
};

BinaryOp binary_op(Tok t) {
    switch (t) {
    case Tok::or_kw:
        return {k_or, Func::or_};
    case Tok::and_kw:
        return {k_and, Func::and_};
    case Tok::lt:
        return {k_cmp, Func::lt};
    case Tok::gt:
        return {k_cmp, Func::lt, true};
    case Tok::le:
        return {k_cmp, Func::le};
    case Tok::ge:
        return {k_cmp, Func::le, true};
    case Tok::eq:
        return {k_cmp, Func::eq};
    case Tok::ne:
        return {k_cmp, Func::ne};
    case Tok::bit_or:
        return {k_bit, Func::bitor_};
    case Tok::bit_xor:
        return {k_bit, Func::bitxor};
    case Tok::bit_and:
        return {k_bit, Func::bitand_};
    case Tok::shl:
        return {k_bit, Func::lshift};
    case Tok::shr:
        return {k_bit, Func::rshift};
    case Tok::plus:
        return {k_add, Func::add};
    case Tok::minus:
        return {k_add, Func::sub};
    case Tok::star:
        return {k_mul, Func::mul};
    case Tok::slash:
        return {k_mul, Func::div};
    case Tok::percent:
        return {k_mul, Func::mod};
    default:
        return {};
    }
}

using ExprPtr = std::unique_ptr<Expr>;

ExprPtr make_const(Value v) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::constant;
    e->constant = v;
    return e;
}

ExprPtr make_func(Func f) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::function;
    e->func = f;
    return e;
}

ExprPtr make_op(Func f, ExprPtr a, ExprPtr b) {
    ExprPtr e = make_func(f);
    e->args.push_back(std::move(a));
    e->args.push_back(std::move(b));
    return e;
}

ExprPtr make_not(ExprPtr a) {
    ExprPtr e = make_func(Func::not_);
    e->args.push_back(std::move(a));
    return e;
}

/// Thrown inside the parser only; converted to ExprParseError at the entry point.
struct Failure {};

class Parser {
public:
    Parser(std::string_view src, size_t pos, VariableTable& vars, ExprParseError& err)
        : m_src(src), m_lexer(src, pos), m_vars(vars), m_err(err) {}

    ExprPtr parse_all(size_t& pos) {
        try {
            ExprPtr e = parse_expr(0);
            if (peek().kind != Tok::end) {
                syntax_error();
            }
            pos = m_lexer.pos();
            return e;
        } catch (const Failure&) {
            return nullptr;
        }
    }

private:
    const Token& peek() {
        if (!m_peeked) {
            m_tok = m_lexer.next();
            m_peeked = true;
            if (m_tok.kind == Tok::error) {
                fail(m_tok.error, std::string(m_tok.text), true, m_tok.end - 1, false);
            }
        }
        return m_tok;
    }

    Token take() {
        peek();
        m_peeked = false;
        m_last_end = m_tok.end;
        return m_tok;
    }

    /// Counts `n` more symbols on bison's stack; fails as bison does when it would overflow.
    void push(int n) {
        m_pending += n;
        if (m_pending > k_max_pending_symbols) {
            const Token& t = peek();
            fail("memory exhausted", {}, false, t.end > 0 ? t.end - 1 : 0, t.kind == Tok::end);
        }
    }

    void pop(int n) { m_pending -= n; }

    [[noreturn]] void syntax_error() {
        // Position of the last byte of the lookahead token (of the newline for an end of
        // line; of the last byte of input at the end).
        const size_t at = m_tok.end > 0 ? m_tok.end - 1 : 0;
        fail("syntax error", {}, false, at, m_tok.kind == Tok::end);
    }

    /// Reports an error. Like pgbench, first lexes to the end of the line to show it; a
    /// lexical error met on the way replaces this one.
    [[noreturn]] void fail(const char* msg, std::string more, bool has_more, size_t at,
                           bool at_end) {
        m_err.message = msg;
        m_err.more = std::move(more);
        m_err.has_more = has_more;
        m_err.offset = at;
        if (!at_end) {
            while (true) {
                Token t = m_lexer.next();
                if (t.kind == Tok::end) {
                    break;
                }
                if (t.kind == Tok::error) {
                    m_err.message = t.error;
                    m_err.more = std::string(t.text);
                    m_err.has_more = true;
                    m_err.offset = t.end - 1;
                }
            }
        }
        m_err.line_end = m_lexer.pos();
        throw Failure{};
    }

    void expect(Tok kind) {
        if (peek().kind != kind) {
            syntax_error();
        }
        take();
    }

    ExprPtr parse_expr(int min_level) {
        ExprPtr lhs = parse_prefix();
        int last_cmp = 0; // level of the last non-associative binary operator applied
        while (true) {
            const Token& t = peek();
            if (t.kind == Tok::isnull_kw || t.kind == Tok::notnull_kw || t.kind == Tok::is_kw) {
                if (k_is < min_level) {
                    break;
                }
                lhs = parse_is(std::move(lhs));
                last_cmp = 0;
                continue;
            }
            const BinaryOp op = binary_op(t.kind);
            if (op.level == 0 || op.level < min_level) {
                break;
            }
            if (op.level == k_cmp && last_cmp == k_cmp) {
                syntax_error(); // non-associative: a < b < c
            }
            take();
            push(2); // the left operand and the operator
            ExprPtr rhs = parse_expr(op.level + 1);
            pop(2);
            lhs = op.swap ? make_op(op.func, std::move(rhs), std::move(lhs))
                          : make_op(op.func, std::move(lhs), std::move(rhs));
            last_cmp = op.level == k_cmp ? k_cmp : 0;
        }
        return lhs;
    }

    ExprPtr parse_is(ExprPtr lhs) {
        const Token t = take();
        if (t.kind == Tok::isnull_kw) {
            return make_op(Func::is, std::move(lhs), make_const(Value::null()));
        }
        if (t.kind == Tok::notnull_kw) {
            return make_not(make_op(Func::is, std::move(lhs), make_const(Value::null())));
        }
        bool negate = false;
        if (peek().kind == Tok::not_kw) {
            take();
            negate = true;
        }
        const Token& what = peek();
        Value v;
        if (what.kind == Tok::null_kw) {
            v = Value::null();
        } else if (what.kind == Tok::boolean) {
            v = Value::boolean(what.bval);
        } else {
            syntax_error();
        }
        take();
        ExprPtr e = make_op(Func::is, std::move(lhs), make_const(v));
        return negate ? make_not(std::move(e)) : std::move(e);
    }

    /// parse_expr(min_level) after a prefix token that stays on bison's stack meanwhile.
    ExprPtr parse_operand(int min_level) {
        push(1);
        ExprPtr e = parse_expr(min_level);
        pop(1);
        return e;
    }

    ExprPtr parse_prefix() {
        push(1); // the operand itself
        pop(1);
        const Token t = peek();
        switch (t.kind) {
        case Tok::lparen: {
            take();
            ExprPtr e = parse_operand(0);
            expect(Tok::rparen);
            return e;
        }
        case Tok::plus:
            take();
            return parse_operand(k_unary);
        case Tok::minus:
            take();
            if (peek().kind == Tok::maxint_plus_one) {
                take();
                return make_const(Value::integer(INT64_MIN));
            }
            return make_op(Func::sub, make_const(Value::integer(0)), parse_operand(k_unary));
        case Tok::tilde:
            // `'~' expr` has the bitwise level in exprparse.y: ~1 + 2 is ~(1 + 2).
            take();
            return make_op(Func::bitxor, make_const(Value::integer(-1)), parse_operand(k_bit + 1));
        case Tok::not_kw:
            take();
            return make_not(parse_operand(k_not));
        case Tok::null_kw:
            take();
            return make_const(Value::null());
        case Tok::boolean:
            take();
            return make_const(Value::boolean(t.bval));
        case Tok::integer:
            take();
            return make_const(Value::integer(t.ival));
        case Tok::real:
            take();
            return make_const(Value::real(t.dval));
        case Tok::variable: {
            take();
            auto e = std::make_unique<Expr>();
            e->kind = ExprKind::variable;
            e->var_slot = m_vars.intern(t.text);
            return e;
        }
        case Tok::function:
            take();
            return parse_call(t);
        case Tok::case_kw:
            take();
            return parse_case();
        default:
            syntax_error();
        }
    }

    ExprPtr parse_call(const Token& name) {
        // bison reduces the function name before reading the next token.
        const FuncInfo* info = nullptr;
        for (const FuncInfo& f : k_functions) {
            if (f.name.size() == name.text.size()
                && strncasecmp(f.name.data(), name.text.data(), f.name.size()) == 0) {
                info = &f;
                break;
            }
        }
        if (info == nullptr) {
            fail("unexpected function name", std::string(name.text), true, name.end - 1, false);
        }
        expect(Tok::lparen);
        push(2); // the function name and '('
        ExprPtr call = make_func(info->func);
        // elist: empty | expr | elist ',' expr  (so "f(,1)" is f(1), as in pgbench)
        if (peek().kind != Tok::rparen && peek().kind != Tok::comma) {
            call->args.push_back(parse_expr(0));
        }
        while (peek().kind == Tok::comma) {
            take();
            call->args.push_back(parse_expr(0));
        }
        expect(Tok::rparen);
        pop(2);
        check_arity(*info, *call);
        return call;
    }

    void check_arity(const FuncInfo& info, Expr& call) {
        const size_t n = call.args.size();
        const size_t at = m_last_end - 1; // the closing parenthesis
        bool ok = true;
        bool add_seed = false;
        if (info.nargs == static_cast<int>(Arity::variable)) {
            if (n == 0) {
                fail("at least one argument expected", std::string(info.name), true, at, false);
            }
        } else if (info.nargs == static_cast<int>(Arity::hash)) {
            ok = n == 1 || n == 2;
            add_seed = n == 1;
        } else if (info.nargs == static_cast<int>(Arity::permute)) {
            ok = n == 2 || n == 3;
            add_seed = n == 2;
        } else {
            ok = n == static_cast<size_t>(info.nargs);
        }
        if (!ok) {
            fail("unexpected number of arguments", std::string(info.name), true, at, false);
        }
        if (add_seed) {
            auto seed = std::make_unique<Expr>();
            seed->kind = ExprKind::variable;
            seed->var_slot = m_vars.intern("default_seed");
            call.args.push_back(std::move(seed));
        }
    }

    ExprPtr parse_case() {
        // Arguments: when1, then1, ..., whenN, thenN, else (NULL when absent).
        ExprPtr e = make_func(Func::case_);
        push(2); // CASE and the pending WHEN ... THEN ... list
        if (peek().kind != Tok::when_kw) {
            syntax_error();
        }
        while (peek().kind == Tok::when_kw) {
            take();
            e->args.push_back(parse_expr(0));
            expect(Tok::then_kw);
            e->args.push_back(parse_expr(0));
        }
        if (peek().kind == Tok::else_kw) {
            take();
            e->args.push_back(parse_expr(0));
        } else {
            e->args.push_back(make_const(Value::null()));
        }
        expect(Tok::end_kw);
        pop(2);
        return e;
    }

    std::string_view m_src;
    ExprLexer m_lexer;
    VariableTable& m_vars;
    ExprParseError& m_err;
    Token m_tok;
    bool m_peeked = false;
    size_t m_last_end = 0;
    int m_pending = 1; ///< symbols (and the initial state) bison's stack would hold
};

} // namespace

std::unique_ptr<Expr> parse_expression(std::string_view src, size_t& pos, VariableTable& vars,
                                       ExprParseError& err) {
    Parser p(src, pos, vars, err);
    return p.parse_all(pos);
}

} // namespace pglab::script
