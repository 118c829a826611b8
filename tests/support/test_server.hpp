// The one PostgreSQL server of a test process: a throwaway cluster started on first use and
// removed at exit (also on Ctrl-C or a crash), or the server the case shares with others of its
// suite (support/shared_server.hpp), with helpers to point clients at it and run SQL.
#pragma once

#include "lab/server/throwaway_cluster.hpp"
#include "pg/connection.hpp"
#include "support/run_command.hpp"
#include "support/wait.hpp"

#include <chrono>
#include <string>

namespace support {

/// Options for a throwaway cluster of a test: the reference installation (PostgreSQL 15, the
/// version of the reference pgbench; the bin directory in PGLAB_TEST_PG_BIN when set), fsync
/// off, and initdb's output kept in the build directory, so that each test process (one per
/// test case) copies a data directory instead of running initdb.
pglab::lab::server::ClusterOptions cluster_options();

/// The test process's cluster, started on the first call (cluster_options()). When it cannot
/// start, prints why and exits 1: no test of the binary can run without it. Also exits 1 in a
/// case that shares a server: such a case uses only the helpers below.
pglab::lab::server::ThrowawayCluster& test_server();

/// PGHOST, PGPORT, PGUSER and PGDATABASE=`dbname` for the test server: give to run_command.
EnvOverrides server_env(const std::string& dbname = "postgres");

/// The arguments `-h <socket dir> -p <port> -U <user>` for the test server.
std::vector<std::string> server_args();

/// Runs `sql` through psql (`-X -A -t -q -v ON_ERROR_STOP=1`) on the test server and returns
/// its output (rows one a line, columns separated by '|'). A failure is a test failure
/// (ADD_FAILURE with psql's message) and returns "".
std::string run_sql(const std::string& sql, const std::string& dbname = "postgres");

/// pgbench's tables at scale 1 (`pgbench -i -q -s 1` by the reference pgbench) in the database
/// `env` names.
CommandResult init_pgbench_tables(const EnvOverrides& env);

/// A database of this test process holding pgbench's tables at scale 1 (pgbench -i -q -s 1 by
/// the reference pgbench), made on the first call: on a shared server (support/shared_server.hpp)
/// a copy of the fixture's template, dropped at exit; else on the process's own server.
const std::string& pgbench_database();

/// Waits until the query `condition` (one boolean, in `dbname`) returns true on `cluster`: for a
/// state of the server (sessions in pg_stat_activity, say). False when it is still not true after
/// `timeout`.
bool wait_for_sql(const pglab::lab::server::ThrowawayCluster& cluster, const std::string& condition,
                  std::chrono::milliseconds timeout = k_event_timeout,
                  const std::string& dbname = "postgres");

/// The condition that `n` sessions of pgbench or pglab bench (application_name "pgbench") have
/// each run a statement.
std::string bench_sessions_active(int n);

/// A connection to `cluster`'s database postgres as its superuser; a failure is a test failure
/// and gives a connection that is not valid().
pglab::pg::Connection connect(const pglab::lab::server::ThrowawayCluster& cluster);

} // namespace support
