// What pgbench does on its setup connection before the run: the version banner, the scale and
// partitioning of the pgbench tables (for builtin scripts), and the pre-run vacuum.
#pragma once

#include "bench/run_config.hpp"
#include "bench/run_result.hpp"
#include "pg/connection.hpp"
#include "util/result.hpp"

namespace pglab::bench {

/// Prints pgbench's banner on stdout (unless config.quiet): "pgbench (<release>)" of the selected
/// pgbench release, with ", server <version>" when the server's version number differs.
void print_banner(pg::Connection& conn, RunResult& result, const RunConfig& config);

/// Reads the scale from pgbench_branches and the partitioning of pgbench_accounts. Errors
/// (exit 1) carry pgbench's hint to run initialization.
Status discover_tables(pg::Connection& conn, const RunConfig& config, RunResult& result);

/// Reads the server settings that shape benchmark results (memory, durability, WAL,
/// checkpoints, connections) into `result.settings`; leaves them empty if the query fails.
void read_settings(pg::Connection& conn, RunResult& result);

/// Unless -n: vacuums the small tables and truncates history (errors are reported and
/// ignored, as pgbench does); with -v also vacuums pgbench_accounts.
void vacuum_before_run(pg::Connection& conn, const RunConfig& config);

} // namespace pglab::bench
