// lab/run: flushing the statistics a measured step made before its snapshots read them.
#include "lab/run/step_statistics.hpp"

#include "lab/run/servers.hpp"
#include "pg/connection.hpp"
#include "util/stop_signal.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <thread>

namespace pglab::lab::run {

namespace {

constexpr int k_force_flush_version = 150000; // pg_stat_force_next_flush()
constexpr auto k_backend_poll = std::chrono::milliseconds(5);

/// `pids` as an SQL array literal of integers.
std::string pid_array(const std::set<int>& pids) {
    std::string out = "'{";
    for (const int pid : pids) {
        out += fmt::format("{}{}", out.size() > 2 ? "," : "", pid);
    }
    return out + "}'::int[]";
}

} // namespace

std::vector<std::string> flush_session_statistics(ServerSet& servers, const std::string& server) {
    std::vector<std::string> notes;
    std::vector<std::string> names;
    for (const auto& [name, conn] : servers.at(server).sessions) {
        names.push_back(name);
    }
    for (const std::string& name : names) {
        pg::Connection* conn = servers.open_session(server, name);
        if (conn == nullptr || conn->connection_bad()
            || conn->server_version() < k_force_flush_version) {
            continue;
        }
        if (conn->command_in_progress()) {
            // Asking now would wait for that statement, which a later step may be the one to
            // release, and discard its result.
            notes.push_back(fmt::format("session \"{}\" has a statement still running: its "
                                        "statistics arrive when it ends",
                                        name));
            continue;
        }
        if (conn->in_transaction_block()) {
            notes.push_back(fmt::format("session \"{}\" is inside a transaction: its statistics "
                                        "arrive when it ends",
                                        name));
            continue;
        }
        // The backend flushes as it goes idle after this call, before it answers.
        if (auto r = conn->exec("SELECT pg_catalog.pg_stat_force_next_flush()"); !r) {
            notes.push_back(fmt::format("session \"{}\" could not be asked to flush its "
                                        "statistics: {}",
                                        name, util::first_line(r.error().message)));
        }
    }
    return notes;
}

std::set<int> session_backends(const ServerSet& servers, const std::string& server) {
    std::set<int> pids;
    for (const auto& [name, conn] : servers.at(server).sessions) {
        if (conn.valid() && !conn.connection_bad()) {
            pids.insert(conn.backend_pid());
        }
    }
    return pids;
}

Result<std::set<int>> client_backends(pg::Connection& probe) {
    PGLAB_TRY_ASSIGN(pg::QueryResult r,
                     probe.exec("SELECT pid FROM pg_catalog.pg_stat_activity WHERE backend_type ="
                                " 'client backend' AND pid <> pg_backend_pid()"));
    std::set<int> pids;
    for (int row = 0; row < r.ntuples(); ++row) {
        pids.insert(std::atoi(r.value(row, 0)));
    }
    return pids;
}

std::optional<std::string> wait_for_step_backends(pg::Connection& probe,
                                                  const std::set<int>& before,
                                                  const std::set<int>& ours,
                                                  std::chrono::milliseconds limit) {
    std::set<int> known = before;
    known.insert(ours.begin(), ours.end());
    const std::string sql = fmt::format(
        "SELECT count(*) FROM pg_catalog.pg_stat_activity WHERE backend_type = 'client backend'"
        " AND pid <> pg_backend_pid() AND pid <> ALL ({})",
        pid_array(known));
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
        auto r = probe.exec(sql);
        if (!r || r->ntuples() != 1) {
            return "pg_stat_activity could not be read to wait for the step's backends"
                   + (r ? std::string() : ": " + util::first_line(r.error().message));
        }
        const long left = std::atol(r->value(0, 0));
        if (left == 0) {
            return std::nullopt;
        }
        if (std::chrono::steady_clock::now() >= deadline || util::stop_signalled()) {
            return fmt::format("{} client backend{} the step started still ran {} ms after it: "
                               "their statistics may be missing",
                               left, left == 1 ? "" : "s", limit.count());
        }
        std::this_thread::sleep_for(k_backend_poll);
    }
}

} // namespace pglab::lab::run
