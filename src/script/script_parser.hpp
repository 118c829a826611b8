// Parsing one script's text into Commands (pgbench's ParseScript): SQL splitting, backslash
// commands with all their load-time checks, \gset/\aset attachment, conditional structure.
#pragma once

#include "script/command.hpp"
#include "script/variables.hpp"
#include "util/result.hpp"

#include <string_view>
#include <vector>

namespace pglab::script {

/// What the script language of the selected pgbench release accepts beyond 15's.
struct Dialect {
    bool syncpipeline = true; ///< \syncpipeline (pgbench 17); otherwise an unknown command
};

/// Parses `source`. `name` prefixes syntax errors ("name:line: ..."), `desc` names the script in
/// condition errors. Errors are load errors (exit 1) with pgbench's text and trailer lines.
Result<std::vector<Command>> parse_script(std::string_view name, std::string_view desc,
                                          std::string_view source, VariableTable& vars,
                                          const Dialect& dialect = {});

} // namespace pglab::script
