// A loaded script: commands compiled once (variables resolved to slots, expressions to trees,
// SQL split into constant text and parameter slots). Pure: no libpq, no clock.
#pragma once

#include "script/expr.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pglab::script {

/// How SQL is sent (-M): text substitution, or $n parameters with an unnamed or a named
/// prepared statement.
enum class QueryMode : uint8_t { simple, extended, prepared };

/// Every query mode with its name, as pgbench's -M and report spell it.
inline constexpr std::pair<QueryMode, const char*> k_query_modes[] = {
    {QueryMode::simple, "simple"},
    {QueryMode::extended, "extended"},
    {QueryMode::prepared, "prepared"},
};

enum class CommandType : uint8_t { sql, meta };

enum class MetaKind : uint8_t {
    none, ///< an SQL command
    set,
    setshell,
    shell,
    sleep,
    if_,
    elif,
    else_,
    endif,
    startpipeline,
    endpipeline,
    syncpipeline,
};

/// What to do with the rows of an SQL command (\gset / \aset attached to it).
enum class ResultVars : uint8_t { none, gset, aset };

/// A piece of SQL text in simple mode: constant text followed by an optional variable.
struct SqlPiece {
    std::string text;     ///< constant text before the variable
    int var_slot = -1;    ///< variable to substitute after `text`, -1 for none
    std::string var_name; ///< the variable's name, written back as ":name" when undefined
};

/// An argument of \shell, \setshell or \sleep: a literal word or a variable reference.
struct MetaArg {
    std::string text;  ///< the literal (for "::x", the word ":x"); the name for a variable
    int var_slot = -1; ///< >= 0 when the argument is ":name"
};

/// One command of a script. The fields used depend on `type` and `meta`.
struct Command {
    CommandType type = CommandType::sql;
    MetaKind meta = MetaKind::none;
    int line = 0;           ///< 1-based line in the script file where the command starts
    std::string first_line; ///< shown by -r and in messages (SQL: first line, max 127 bytes)

    // --- SQL ---
    std::string sql;               ///< the text as written (after \; and \: handling)
    std::vector<SqlPiece> pieces;  ///< simple mode: text and variables, in order
    std::string parameterized_sql; ///< extended/prepared: ":name" replaced by $1..$n
    std::vector<int> param_slots;  ///< extended/prepared: variable slot of $1..$n
    std::string prepared_name;     ///< prepared: "P_<k>", numbered across all scripts
    int prepared_index = -1;       ///< prepared: k, for per-connection bookkeeping
    ResultVars result_vars = ResultVars::none;
    std::string var_prefix; ///< prefix of \gset / \aset variable names
    bool is_copy = false;   ///< a COPY statement: pgbench aborts the client on it

    // --- meta-commands ---
    std::string meta_name;           ///< "set", "sleep", ... as written (for messages)
    int var_slot = -1;               ///< \set / \setshell: target variable
    std::unique_ptr<Expr> expr;      ///< \set, \if, \elif
    std::vector<MetaArg> args;       ///< \shell / \setshell command words; \sleep amount
    int64_t sleep_unit_us = 1000000; ///< \sleep: multiplier to microseconds (s, ms or us)
    /// \if / \elif: index of the next \elif, \else or \endif of the same \if, taken when the
    /// condition is false.
    int jump = -1;
    /// \if / \elif / \else: index of the matching \endif, taken when execution reaches an
    /// \elif or \else in sequence (the branch before it ran).
    int endif = -1;
};

/// A script with its weight for the weighted choice (pgbench's ParsedScript).
struct Script {
    std::string desc; ///< "<builtin: TPC-B (sort of)>" or the file name as given
    int weight = 1;
    std::vector<Command> commands;
};

} // namespace pglab::script
