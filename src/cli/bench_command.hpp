// `pglab bench ...`: pgbench's command line (initialization or benchmark).
#pragma once

namespace pglab::cli {

/// `argv[0]` is the name to show in messages; the rest are pgbench arguments. Returns the exit
/// status pgbench would (0 success, 1 bad options or setup failure, 2 a client aborted).
int bench_command(int argc, char** argv);

} // namespace pglab::cli
