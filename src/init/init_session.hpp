// What every initialization step needs: the connection, the options, and pgbench's
// executeStatement (a failing statement becomes `query failed: ...` / `Query was: ...`).
#pragma once

#include "init/init_options.hpp"
#include "pg/connection.hpp"
#include "util/result.hpp"

#include <string_view>

namespace pglab::init {

struct InitSession {
    pg::Connection& conn;
    const InitOptions& options;

    /// Runs `sql`, which must return PGRES_COMMAND_OK. Error: `query failed: <libpq message>`
    /// with detail `Query was: <sql>`.
    Status execute(std::string_view sql) const;
};

/// Writes `text` to stderr unchanged (pgbench's fprintf(stderr, ...) messages carry no
/// program name).
void print_stderr(std::string_view text);

} // namespace pglab::init
