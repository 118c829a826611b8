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

/// Other client sessions not idle (running, or idle in a transaction that holds what it took),
/// and autovacuum workers. pg_stat_activity's backend_type is there from 10 on.
constexpr const char* k_busy_sql =
    "SELECT count(*) FILTER (WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() "
    "AND state IS DISTINCT FROM 'idle'), count(*) FILTER (WHERE backend_type = 'autovacuum "
    "worker') FROM pg_stat_activity";

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
    for (;;) {
        auto r = conn.exec(k_busy_sql);
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
        std::this_thread::sleep_for(limits.poll);
    }
    record.waited_ms = ms_since(wait_start);
    return record;
}

} // namespace pglab::lab::run
