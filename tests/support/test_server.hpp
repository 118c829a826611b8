// The one PostgreSQL server of a test binary: a throwaway cluster started on first use and
// removed at exit (also on Ctrl-C or a crash), with helpers to point clients at it and run SQL.
#pragma once

#include "lab/server/throwaway_cluster.hpp"
#include "support/run_command.hpp"

#include <string>

namespace support {

/// The test binary's cluster, started on the first call (newest installation, or the bin
/// directory in PGLAB_TEST_PG_BIN; fsync off). When it cannot start, prints why and exits 1:
/// no test of the binary can run without it.
pglab::lab::server::ThrowawayCluster& test_server();

/// PGHOST, PGPORT, PGUSER and PGDATABASE=`dbname` for the test server: give to run_command.
EnvOverrides server_env(const std::string& dbname = "postgres");

/// The arguments `-h <socket dir> -p <port> -U <user>` for the test server.
std::vector<std::string> server_args();

/// Runs `sql` through psql (`-X -A -t -q -v ON_ERROR_STOP=1`) on the test server and returns
/// its output (rows one a line, columns separated by '|'). A failure is a test failure
/// (ADD_FAILURE with psql's message) and returns "".
std::string run_sql(const std::string& sql, const std::string& dbname = "postgres");

} // namespace support
