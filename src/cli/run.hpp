// The command line of pglab: subcommands, exit codes. main() calls run() and nothing else.
#pragma once

namespace pglab::cli {

/// Runs pglab with the process arguments; returns the exit status (0, 1 or 2 as pgbench).
int run(int argc, char** argv);

} // namespace pglab::cli
