// Connection parameters as pgbench gathers them (-h, -p, -U, dbname, environment). libpq
// does the rest: PG* variables, service files, .pgpass. Passwords never reach logs.
#pragma once

#include <string>

namespace pglab::pg {

struct ConnParams {
    std::string host;     ///< empty: libpq default (PGHOST, then the socket directory)
    std::string port;     ///< empty: libpq default
    std::string user;     ///< empty: libpq default
    std::string dbname;   ///< a name, or a conninfo string / URI (expanded as libpq does)
    std::string password; ///< set after a prompt; never printed
    std::string application_name = "pgbench"; ///< fallback_application_name
    std::string options; ///< libpq `options` ("-c work_mem=64MB"); empty: PGOPTIONS or none
};

/// `conninfo` with any password value replaced by "********" (key=value or URI form).
std::string redact_conninfo(const std::string& conninfo);

} // namespace pglab::pg
