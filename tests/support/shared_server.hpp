// A server shared by several cases of a suite across their processes. CTest runs each case in a
// process of its own, and a case that needs only a database on a plain server would otherwise
// start a server and fill a database of its own (most of such a case's time). Under ctest the
// fixture's setup (tests/tools/shared_server_main.cpp) starts one server and a template database
// for the cases that require the fixture (tests/case-properties.cmake names them and gives them
// PGLAB_TEST_SHARED_SERVER); each case copies the template into a database of its own, so no
// case sees another's rows. Outside ctest a case starts its own server, as before.
#pragma once

#include "support/run_command.hpp"
#include "util/result.hpp"

#include <sys/types.h>

#include <filesystem>
#include <string>

namespace support {

/// A running server as its holder process wrote it down.
struct SharedServer {
    pid_t holder_pid = 0; ///< the process that owns the server and removes it
    std::filesystem::path socket_dir;
    int port = 0;
    std::string user;
    std::filesystem::path psql;    ///< the installation's psql
    std::string template_database; ///< pgbench's tables at scale 1 (pgbench -i -q -s 1)

    /// PGHOST, PGPORT, PGUSER and PGDATABASE=`dbname`: give to run_command.
    EnvOverrides client_env(const std::string& dbname) const;

    /// Runs `sql` through psql (`-X -A -t -q -v ON_ERROR_STOP=1`) in `dbname`: its output, or
    /// an error with psql's stderr.
    pglab::Result<std::string> run_sql(const std::string& sql, const std::string& dbname) const;
};

/// The name of the fixture's template database.
inline constexpr const char* k_shared_template_database = "pglab_pgbench_template";

/// The state file of the shared server `name`: PGLAB_TEST_SHARED_DIR/`name`.server.json; empty
/// outside ctest (PGLAB_TEST_SHARED_DIR unset).
std::filesystem::path shared_server_state_file(const std::string& name);

/// Writes `server` to `path` whole or not at all.
pglab::Status write_shared_server_state(const std::filesystem::path& path,
                                        const SharedServer& server);

/// Reads what write_shared_server_state wrote; an error when the file is missing or malformed.
pglab::Result<SharedServer> read_shared_server_state(const std::filesystem::path& path);

/// The shared server this case was given (PGLAB_TEST_SHARED_SERVER names it), read once per
/// process; nullptr when the case was given none, or when its holder is not running (the
/// fixture's setup left out with `ctest -FS`): then a line on stderr says so, and the case starts
/// its own server.
const SharedServer* shared_server();

} // namespace support
