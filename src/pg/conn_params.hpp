// Connection parameters as pgbench gathers them (-h, -p, -U, dbname, environment). libpq
// does the rest: PG* variables, service files, .pgpass. Passwords never reach logs; the
// environment a child client needs to connect the same way.
#pragma once

#include "util/result.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

/// What redact_conninfo() writes in place of a password.
inline constexpr std::string_view k_redacted_password = "********";

/// `conninfo` with any password value replaced by "********" (key=value or URI form).
std::string redact_conninfo(const std::string& conninfo);

/// The libpq environment variables that make another client (psql in a shell step) connect as
/// `params` does: PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE from its fields, the
/// variables of every keyword of `params.dbname` when that is a conninfo string or URI (they
/// win over the fields, as in a connection), and PGOPTIONS from `options`. Holds the password:
/// for a child's environment only, never for a log or a command line. Error when `dbname` is
/// a conninfo libpq cannot parse (the message does not quote it).
Result<std::vector<std::pair<std::string, std::string>>>
client_environment(const ConnParams& params);

} // namespace pglab::pg
