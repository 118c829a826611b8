// \shell and \setshell: run a command line through /bin/sh as pgbench does (system, popen).
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <string>

namespace pglab::bench {

/// \shell: runs `command`; a non-zero status is an error (`<name>: could not launch shell
/// command`).
Status run_shell(const std::string& name, const std::string& command);

/// \setshell: runs `command` and parses the first line of its output (at most 63 bytes) as an
/// integer. Errors: `<name>: could not launch shell command`, `<name>: could not read result of
/// shell command`, `<name>: shell command must return an integer (not "x")`.
Result<int64_t> run_setshell(const std::string& name, const std::string& command);

} // namespace pglab::bench
