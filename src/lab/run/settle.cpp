// lab/run: settle_server.
#include "lab/run/settle.hpp"

#include "util/stop_signal.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <thread>

namespace pglab::lab::run {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

/// Other client sessions not idle (running, or idle in a transaction that holds what it took).
/// pg_stat_activity's backend_type is there from 10 on.
constexpr const char* k_other_sessions =
    "backend_type = 'client backend' AND pid <> pg_backend_pid() "
    "AND state IS DISTINCT FROM 'idle'";

/// On an existing server: only this database's sessions and pglab's own count.
constexpr const char* k_ours =
    "AND (datname = current_database() OR coalesce(application_name, '') LIKE 'pglab%' "
    "OR application_name = 'pgbench')";

/// The count of busy sessions and of autovacuum workers.
std::string busy_sql(bool existing) {
    return fmt::format("SELECT count(*) FILTER (WHERE {} {}), count(*) FILTER (WHERE backend_type "
                       "= 'autovacuum worker' {}) FROM pg_stat_activity",
                       k_other_sessions, existing ? k_ours : "",
                       existing ? "AND datname = current_database()" : "");
}

/// The longest-running of them: "pid 4242 (active 12 s): UPDATE …".
std::string waited_for_sql(bool existing) {
    return fmt::format(
        "SELECT format('pid %s (%s %s s): %s', pid, coalesce(state, backend_type), "
        "coalesce(round(extract(epoch FROM now() - coalesce(query_start, backend_start)))::int, "
        "0), left(regexp_replace(query, '\\s+', ' ', 'g'), 80)) FROM pg_stat_activity WHERE "
        "(({}) OR backend_type = 'autovacuum worker') {} ORDER BY coalesce(query_start, "
        "backend_start) LIMIT 1",
        k_other_sessions, existing ? k_ours : "");
}

struct Busy {
    long sessions = 0;
    long autovacuum = 0;
};

std::string busy_text(const Busy& b) {
    std::string out;
    if (b.sessions > 0) {
        out = fmt::format("{} other active session{}", b.sessions, b.sessions == 1 ? "" : "s");
    }
    if (b.autovacuum > 0) {
        out += fmt::format("{}{} autovacuum worker{}", out.empty() ? "" : ", ", b.autovacuum,
                           b.autovacuum == 1 ? "" : "s");
    }
    return out;
}

} // namespace

store::SettleRecord settle_server(pg::Connection& conn, const SettleLimits& limits) {
    store::SettleRecord record;
    const Clock::time_point checkpoint_start = Clock::now();
    if (auto r = conn.exec("CHECKPOINT"); !r) {
        record.busy = "CHECKPOINT failed: " + r.error().message;
        return record;
    }
    record.checkpoint_ms = ms_since(checkpoint_start);
    const Clock::time_point wait_start = Clock::now();
    const Clock::time_point deadline = wait_start + limits.bound;
    const std::string busy_query = busy_sql(limits.existing);
    Clock::time_point next_tell = wait_start + limits.tell_every;
    for (;;) {
        auto r = conn.exec(busy_query.c_str());
        if (!r || r->ntuples() != 1) {
            record.busy = "pg_stat_activity could not be read"
                          + (r ? std::string() : ": " + r.error().message);
            break;
        }
        const Busy busy{std::atol(r->value(0, 0)), std::atol(r->value(0, 1))};
        if (busy.sessions == 0 && busy.autovacuum == 0) {
            record.settled = true;
            break;
        }
        if (Clock::now() >= deadline || util::stop_signalled()) {
            record.busy = busy_text(busy);
            break;
        }
        if (limits.waiting && Clock::now() >= next_tell) {
            next_tell += limits.tell_every;
            const std::string query = waited_for_sql(limits.existing);
            auto who = conn.exec(query.c_str());
            limits.waiting(who && who->ntuples() == 1
                               ? busy_text(busy) + "; the first: " + who->value(0, 0)
                               : busy_text(busy));
        }
        std::this_thread::sleep_for(limits.poll);
    }
    record.waited_ms = ms_since(wait_start);
    return record;
}

} // namespace pglab::lab::run
