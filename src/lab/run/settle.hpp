// lab/run: settling a server before a run's first step, so that runs start alike: a CHECKPOINT
// (no dirty pages of the last run left for this one's checkpoint to write), then a bounded wait
// until no other session is active (the last run's backends have exited) and no autovacuum
// worker runs. What it found is recorded with the run; a server that does not settle within the
// bound is recorded so, not waited for longer.
#pragma once

#include "lab/store/run_record.hpp"
#include "pg/connection.hpp"

#include <chrono>
#include <functional>
#include <string>

namespace pglab::lab::run {

/// How long to wait for a server to settle after its CHECKPOINT, and how often to look.
struct SettleLimits {
    std::chrono::milliseconds bound{60'000};
    std::chrono::milliseconds poll{50};
    /// A server pglab did not create (`conninfo`): only sessions in the connection's database
    /// and pglab's own (fallback application names "pglab…" and "pgbench") count, and
    /// autovacuum only in that database; the others are the server's users, not a last run.
    bool existing = false;
    /// Told what it waits for, every `tell_every` of waiting ("pid 4242, active 12 s: UPDATE
    /// …"), so that a wait on a user's session does not pass in silence.
    std::function<void(const std::string&)> waiting;
    std::chrono::milliseconds tell_every{5'000};
};

/// Settles the server `conn` reaches (the connection itself does not count as a session).
/// Stops early, unsettled, when SIGINT or SIGTERM arrived.
store::SettleRecord settle_server(pg::Connection& conn, const SettleLimits& limits = {});

} // namespace pglab::lab::run
