// The checks the script fuzzer runs on one input, shared by the libFuzzer target
// (fuzz/script_fuzz.cpp) and the regression test of its findings
// (tests/unit/script/fuzz_regression_test.cpp). Input: one byte choosing the query mode, then a
// script's text. The script is loaded and compiled; a rejected script must carry a message;
// every expression must survive print -> parse unchanged; then the script runs once as client 0
// would (no SQL is sent, no shell is started), evaluating every \set, \if and \elif.
#pragma once

#include "script/expr.hpp"
#include "script/expr_parser.hpp"
#include "script/loader.hpp"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::fuzz {

/// Writes `e` back as expression text that parses to the same tree (fully parenthesized).
inline void print_expr(const script::Expr& e, const script::VariableTable& table,
                       std::string& out) {
    using script::Func;
    using script::ValueType;
    switch (e.kind) {
    case script::ExprKind::constant: {
        const script::Value& v = e.constant;
        char buf[64];
        switch (v.type) {
        case ValueType::null:
            out += "NULL";
            return;
        case ValueType::boolean:
            out += v.u.b ? "TRUE" : "FALSE";
            return;
        case ValueType::integer:
            if (v.u.i == INT64_MIN) {
                out += "(-9223372036854775808)";
            } else if (v.u.i < 0) {
                std::snprintf(buf, sizeof(buf), "(0 - %" PRId64 ")", -v.u.i);
                out += buf;
            } else {
                std::snprintf(buf, sizeof(buf), "%" PRId64, v.u.i);
                out += buf;
            }
            return;
        case ValueType::real: {
            std::snprintf(buf, sizeof(buf), "%.17g", v.u.d);
            std::string_view s(buf);
            out += s;
            if (s.find_first_of(".e") == std::string_view::npos) {
                out += ".0";
            }
            return;
        }
        }
        return;
    }
    case script::ExprKind::variable:
        out += ':';
        out += table.name(e.var_slot);
        return;
    case script::ExprKind::function:
        break;
    }
    auto binary = [&](const char* op) {
        out += '(';
        print_expr(*e.args.at(0), table, out);
        out += ' ';
        out += op;
        out += ' ';
        print_expr(*e.args.at(1), table, out);
        out += ')';
    };
    auto call = [&](const char* name) {
        out += name;
        out += '(';
        for (size_t i = 0; i < e.args.size(); ++i) {
            if (i > 0) {
                out += ", ";
            }
            print_expr(*e.args[i], table, out);
        }
        out += ')';
    };
    switch (e.func) {
    case Func::add:
        return binary("+");
    case Func::sub:
        return binary("-");
    case Func::mul:
        return binary("*");
    case Func::div:
        return binary("/");
    case Func::mod:
        return binary("%");
    case Func::eq:
        return binary("=");
    case Func::ne:
        return binary("<>");
    case Func::le:
        return binary("<=");
    case Func::lt:
        return binary("<");
    case Func::is:
        return binary("IS");
    case Func::bitand_:
        return binary("&");
    case Func::bitor_:
        return binary("|");
    case Func::bitxor:
        return binary("#");
    case Func::lshift:
        return binary("<<");
    case Func::rshift:
        return binary(">>");
    case Func::and_:
        return binary("AND");
    case Func::or_:
        return binary("OR");
    case Func::not_:
        out += "(NOT ";
        print_expr(*e.args.at(0), table, out);
        out += ')';
        return;
    case Func::case_:
        out += "CASE";
        for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
            out += " WHEN ";
            print_expr(*e.args[i], table, out);
            out += " THEN ";
            print_expr(*e.args[i + 1], table, out);
        }
        out += " ELSE ";
        print_expr(*e.args.back(), table, out);
        out += " END";
        return;
    case Func::abs:
        return call("abs");
    case Func::debug:
        return call("debug");
    case Func::double_:
        return call("double");
    case Func::exp:
        return call("exp");
    case Func::greatest:
        return call("greatest");
    case Func::hash_fnv1a:
        return call("hash_fnv1a");
    case Func::hash_murmur2:
        return call("hash_murmur2");
    case Func::int_:
        return call("int");
    case Func::least:
        return call("least");
    case Func::ln:
        return call("ln");
    case Func::permute:
        return call("permute");
    case Func::pi:
        return call("pi");
    case Func::pow:
        return call("pow");
    case Func::random:
        return call("random");
    case Func::random_exponential:
        return call("random_exponential");
    case Func::random_gaussian:
        return call("random_gaussian");
    case Func::random_zipfian:
        return call("random_zipfian");
    case Func::sqrt:
        return call("sqrt");
    }
}

/// True if `a` and `b` are the same tree, a negative integer constant -k being the same as
/// `0 - k` (the printer's spelling of it).
inline bool same_expr(const script::Expr& a, const script::Expr& b) {
    using script::ExprKind;
    auto negative_constant = [](const script::Expr& c, const script::Expr& sub) {
        return c.kind == ExprKind::constant && c.constant.type == script::ValueType::integer
               && c.constant.u.i < 0 && c.constant.u.i != INT64_MIN
               && sub.kind == ExprKind::function && sub.func == script::Func::sub
               && sub.args.size() == 2 && sub.args[0]->kind == ExprKind::constant
               && sub.args[0]->constant.type == script::ValueType::integer
               && sub.args[0]->constant.u.i == 0 && sub.args[1]->kind == ExprKind::constant
               && sub.args[1]->constant.type == script::ValueType::integer
               && sub.args[1]->constant.u.i == -c.constant.u.i;
    };
    if (negative_constant(a, b) || negative_constant(b, a)) {
        return true;
    }
    if (a.kind != b.kind) {
        return false;
    }
    switch (a.kind) {
    case ExprKind::constant: {
        const script::Value& x = a.constant;
        const script::Value& y = b.constant;
        if (x.type != y.type) {
            return false;
        }
        switch (x.type) {
        case script::ValueType::null:
            return true;
        case script::ValueType::boolean:
            return x.u.b == y.u.b;
        case script::ValueType::integer:
            return x.u.i == y.u.i;
        case script::ValueType::real:
            return x.u.d == y.u.d;
        }
        return false;
    }
    case ExprKind::variable:
        return a.var_slot == b.var_slot;
    case ExprKind::function:
        if (a.func != b.func || a.args.size() != b.args.size()) {
            return false;
        }
        for (size_t i = 0; i < a.args.size(); ++i) {
            if (!same_expr(*a.args[i], *b.args[i])) {
                return false;
            }
        }
        return true;
    }
    return false;
}

/// Runs every check on one fuzz input. Returns "" when all hold, else what went wrong.
inline std::string check_script_input(std::string_view data) {
    using namespace script; // NOLINT(google-build-using-namespace): local to this function
    if (data.empty()) {
        return "";
    }
    const auto mode = static_cast<QueryMode>(static_cast<unsigned char>(data[0]) % 3);
    const std::string_view source = data.substr(1);

    ScriptSet set;
    Status st = set.add("fuzz.sql", "fuzz.sql", source, 1);
    if (st) {
        st = set.compile(mode);
    }
    if (!st) {
        return st.error().message.empty() ? "a rejected script without a message" : "";
    }
    VariableTable& table = set.variables();
    for (const char* name : {"scale", "client_id", "default_seed", "random_seed", "foo", "n"}) {
        table.intern(name);
    }

    // Round trip: print each expression, parse the text again, compare the trees.
    const std::vector<Command>& cmds = set.scripts().at(0).commands;
    const int n = static_cast<int>(cmds.size());
    std::string text;
    for (int i = 0; i < n; ++i) {
        const Command& c = cmds[static_cast<size_t>(i)];
        if (c.meta == MetaKind::if_ || c.meta == MetaKind::elif || c.meta == MetaKind::else_) {
            if (c.endif <= i || c.endif >= n
                || (c.meta != MetaKind::else_ && (c.jump <= i || c.jump > c.endif))) {
                return "bad jump targets at command " + std::to_string(i + 1);
            }
        }
        if (!c.expr) {
            continue;
        }
        text.clear();
        print_expr(*c.expr, table, text);
        size_t pos = 0;
        ExprParseError err;
        auto again = parse_expression(text, pos, table, err);
        if (!again) {
            return "printed expression does not parse: " + text + ": " + err.message;
        }
        if (!same_expr(*c.expr, *again)) {
            return "printed expression parses differently: " + text;
        }
    }

    // One transaction of client 0: -D foo=bla, -D n=null, automatic variables, seed 5432.
    Prng base;
    base.seed(5432);
    Prng prng;
    prng.seed(base.next_u64());
    Variables vars(table);
    vars.set_string(table.find("foo"), "bla");
    vars.set_string(table.find("n"), "null");
    vars.set(table.find("scale"), Value::integer(1));
    vars.set(table.find("client_id"), Value::integer(0));
    vars.set(table.find("default_seed"), Value::integer(static_cast<int64_t>(base.next_u64())));
    vars.set(table.find("random_seed"), Value::integer(5432));
    std::string debug_out;
    std::string sql;
    std::vector<std::string> params;
    std::vector<bool> nulls;
    int i = 0;
    bool by_jump = false;
    while (i < n) {
        const Command& c = cmds[static_cast<size_t>(i)];
        int next = i + 1;
        bool jumped = false;
        debug_out.clear();
        EvalContext ctx{vars, prng, 0, i + 1, &debug_out};
        if (c.type == CommandType::sql) {
            substitute_sql(c, vars, sql);
            fill_params(c, vars, params, nulls);
        } else if (c.meta == MetaKind::set || c.meta == MetaKind::if_ || c.meta == MetaKind::elif) {
            if (c.meta == MetaKind::elif && !by_jump) {
                next = c.endif;
            } else {
                Result<Value> v = evaluate(*c.expr, ctx);
                if (!v) {
                    return ""; // (an empty message is pgbench's silent empty-variable error)
                }
                if (c.meta == MetaKind::set) {
                    vars.set(c.var_slot, *v);
                } else {
                    Result<bool> t = truth(*v);
                    if (!t) {
                        return "";
                    }
                    if (!*t) {
                        next = c.jump;
                        jumped = true;
                    }
                }
            }
        } else if (c.meta == MetaKind::else_ && !by_jump) {
            next = c.endif;
        } else if (c.meta == MetaKind::sleep) {
            if (!sleep_duration_us(c, vars)) {
                return "";
            }
        } else if (c.meta == MetaKind::shell || c.meta == MetaKind::setshell) {
            if (!shell_command_line(c, vars)) {
                return "";
            }
        }
        by_jump = jumped;
        i = next;
    }
    return "";
}

} // namespace pglab::fuzz
