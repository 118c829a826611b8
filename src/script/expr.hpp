// Expression trees of \set / \if and their evaluation, bit-exact with pgbench 15 (PGBENCH.md §5).
// Pure: no libpq, no clock; the random generator and the debug() sink are passed in.
#pragma once

#include "script/prng.hpp"
#include "script/value.hpp"
#include "script/variables.hpp"
#include "util/result.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pglab::script {

/// Function and operator codes (pgbench's PgBenchFunction).
enum class Func : uint8_t {
    add,
    sub,
    mul,
    div,
    mod,
    eq,
    ne,
    le,
    lt,
    is,
    bitand_,
    bitor_,
    bitxor,
    lshift,
    rshift,
    and_,
    or_,
    not_,
    case_,
    abs,
    debug,
    double_,
    exp,
    greatest,
    hash_fnv1a,
    hash_murmur2,
    int_,
    least,
    ln,
    permute,
    pi,
    pow,
    random,
    random_exponential,
    random_gaussian,
    random_zipfian,
    sqrt,
};

enum class ExprKind : uint8_t { constant, variable, function };

/// A node of an expression tree. Trees are built once at load time; evaluation allocates
/// nothing.
struct Expr {
    ExprKind kind = ExprKind::constant;
    Value constant;                          ///< kind == constant
    int var_slot = -1;                       ///< kind == variable
    Func func = Func::add;                   ///< kind == function
    std::vector<std::unique_ptr<Expr>> args; ///< kind == function, in order
};

/// What an evaluation may touch besides the tree: the client's variables and random state, and
/// where debug() writes (its line is "debug(script=S,command=C): ..." on stderr).
struct EvalContext {
    Variables& vars;
    Prng& prng;
    int script_index = 0;  ///< 0-based, for debug()
    int command_index = 0; ///< 1-based, for debug()
    /// When set, debug() appends its line here instead of writing it to stderr (tests).
    std::string* debug_capture = nullptr;
};

/// Evaluates `e`. Errors are pgbench's runtime messages (the client aborts with them), e.g.
/// "division by zero", "bigint add out of range", `undefined variable "x"`.
Result<Value> evaluate(const Expr& e, EvalContext& ctx);

/// pgbench's truth rule for \if, \elif and CASE WHEN: NULL is false, numbers are true when != 0.
Result<bool> truth(const Value& v);

} // namespace pglab::script
