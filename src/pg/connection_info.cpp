// Connection details and the blocking PREPARE used before pipelines.
#include "pg/connection.hpp"

#include <libpq-fe.h>

namespace pglab::pg {

std::string Connection::host() const {
    const char* h = m_conn != nullptr ? PQhost(m_conn) : nullptr;
    return h != nullptr ? h : "";
}

std::string Connection::port() const {
    const char* p = m_conn != nullptr ? PQport(m_conn) : nullptr;
    return p != nullptr ? p : "";
}

bool Connection::prepare_blocking(const char* name, const char* sql, int nparams) {
    PGresult* res = PQprepare(m_conn, name, sql, nparams, nullptr);
    const bool ok = res != nullptr && PQresultStatus(res) == PGRES_COMMAND_OK;
    PQclear(res);
    return ok;
}

} // namespace pglab::pg
