// lab/run: SessionBackends.
#include "lab/run/session_backends.hpp"

#include "pg/connection.hpp"

#include <map>
#include <string>

namespace pglab::lab::run {

void SessionBackends::add(const pg::ConnParams& params, int pid) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_backends.emplace_back(params, pid);
}

void SessionBackends::add_cluster(const pg::ConnParams& params) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    for (const auto& p : m_clusters) {
        if (p.host == params.host && p.port == params.port) {
            return;
        }
    }
    m_clusters.push_back(params);
}

void SessionBackends::clear() {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_backends.clear();
    m_clusters.clear();
}

void SessionBackends::cancel_all() {
    std::vector<std::pair<pg::ConnParams, int>> backends;
    std::vector<pg::ConnParams> clusters;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        backends = m_backends;
        clusters = m_clusters;
    }
    // A backend may end between the look and the signal; the server's WARNING that its pid "is
    // not a PostgreSQL backend process" then says nothing to the user, who pressed Ctrl-C.
    const auto quiet = [](pg::Connection& conn) { conn.on_notice([](std::string_view) {}); };
    for (pg::ConnParams params : clusters) {
        params.options.clear();
        if (auto conn = pg::Connection::connect(params)) {
            quiet(*conn);
            (void)conn->exec("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE "
                             "backend_type = 'client backend' AND pid <> pg_backend_pid()");
        }
    }
    // One connection per server (same conninfo, host and port), cancelling all of its backends.
    std::map<std::string, std::pair<pg::ConnParams, std::string>> by_server;
    for (const auto& [params, pid] : backends) {
        auto& entry = by_server[params.dbname + '\n' + params.host + '\n' + params.port];
        entry.first = params;
        entry.second += (entry.second.empty() ? "" : ",") + std::to_string(pid);
    }
    for (auto& [key, entry] : by_server) {
        pg::ConnParams params = entry.first;
        params.options.clear();
        auto conn = pg::Connection::connect(params);
        if (conn) {
            // Only the backends still there: a session that ended is not signalled.
            quiet(*conn);
            (void)conn->exec("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid = "
                             "ANY(ARRAY["
                             + entry.second + "])");
        }
    }
}

} // namespace pglab::lab::run
