// Parser of \set / \if expressions into Expr trees, reproducing pgbench's bison grammar
// (exprparse.y): precedence, the `~` quirk, INT64_MIN, error messages and error positions.
#pragma once

#include "script/expr.hpp"
#include "script/variables.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace pglab::script {

/// A load-time expression error, positioned as pgbench reports it.
struct ExprParseError {
    std::string message; ///< "syntax error", "unexpected function name", ...
    std::string more;    ///< shown in parentheses after the message, may be empty
    bool has_more = false;
    size_t offset = 0;   ///< offset in the source of the byte the caret points at
    size_t line_end = 0; ///< where lexing stopped: the offending line ends before it
};

/// Parses the expression that starts at `pos` in `src` and ends at a newline or at the end of
/// `src`. Variable names are interned into `vars`. On success `pos` is moved after the end;
/// on failure returns nullptr and fills `err`.
std::unique_ptr<Expr> parse_expression(std::string_view src, size_t& pos, VariableTable& vars,
                                       ExprParseError& err);

} // namespace pglab::script
