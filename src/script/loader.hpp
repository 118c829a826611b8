// Loading scripts: the builtin ones and script files, into compiled Scripts. Errors carry
// pgbench's exact text ("file:line: message ... at column N in command ...", line and caret).
#pragma once

#include "script/command.hpp"
#include "script/script_parser.hpp"
#include "script/variables.hpp"
#include "util/result.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pglab::script {

/// A builtin script (pgbench's builtin_script[]).
struct BuiltinScript {
    std::string_view name; ///< "tpcb-like", "simple-update", "select-only"
    std::string_view desc; ///< "<builtin: TPC-B (sort of)>", ...
    std::string_view text; ///< the script source, exactly as --show-script prints it
};

const std::vector<BuiltinScript>& builtin_scripts();

/// Finds a builtin by exact name or unambiguous prefix. Errors: `no builtin script found for
/// name "X"` / `ambiguous builtin name: N builtin scripts found for prefix "X"`; in both cases
/// the error's trailer lists the builtins as `-b list` does ("Available builtin scripts:\n...").
Result<const BuiltinScript*> find_builtin(std::string_view name);

/// The text `-b list` prints on stderr: "Available builtin scripts:\n" then "  %13s: %s\n" per
/// script, then an empty line.
std::string builtin_list_text();

/// Everything loaded from the command line: the scripts in order, and the variable table they
/// share. Prepared statement names are numbered across all scripts in load order.
class ScriptSet {
public:
    /// The language that add() accepts from now on (the selected pgbench release's).
    void set_dialect(const Dialect& dialect) { m_dialect = dialect; }

    /// Parses `source` (a builtin's text or a file's contents) and appends it.
    /// `name` is used in error messages ("file:line: ..."), `desc` in reports.
    /// Errors are exit-1 load errors with pgbench's wording.
    Status add(std::string_view name, std::string_view desc, std::string_view source, int weight);

    /// Finishes loading for `mode`: splits SQL into pieces or $n parameters (error
    /// `statement has too many arguments (maximum is 255): <sql>`), names prepared statements.
    Status compile(QueryMode mode);

    std::vector<Script>& scripts() { return m_scripts; }

    const std::vector<Script>& scripts() const { return m_scripts; }

    VariableTable& variables() { return m_vars; }

    const VariableTable& variables() const { return m_vars; }

    int total_weight() const;

private:
    std::vector<Script> m_scripts;
    VariableTable m_vars;
    Dialect m_dialect;
};

/// Splits `spec` "NAME@W" at the last '@' as pgbench does. Errors: `invalid weight
/// specification: @X`, `weight specification out of range (0 .. 2147483647): N`.
Result<std::pair<std::string, int>> split_weight(std::string_view spec);

// --- Run-time helpers for the engine (bench/): pure functions of a command and variables. ---

/// Simple mode: writes the SQL with variables substituted into `out` (cleared first);
/// undefined variables stay as ":name".
void substitute_sql(const Command& cmd, const Variables& vars, std::string& out);

/// Extended/prepared modes: fills `values` (one per $n; empty string storage reused) and
/// `is_null` (undefined variables are sent as SQL NULL).
void fill_params(const Command& cmd, const Variables& vars, std::vector<std::string>& values,
                 std::vector<bool>& is_null);

/// \sleep: the duration in microseconds. Errors: `sleep: undefined variable "x"`,
/// `sleep: invalid sleep time "v" for variable "x"`.
Result<int64_t> sleep_duration_us(const Command& cmd, Variables& vars);

/// \shell / \setshell: the command line (words joined by spaces). Errors:
/// `<cmd>: undefined variable ":x"`, `<cmd>: shell command is too long`.
Result<std::string> shell_command_line(const Command& cmd, const Variables& vars);

} // namespace pglab::script
