// lab/run: settling a server before a run's first step, so that runs start alike: a CHECKPOINT
// (no dirty pages of the last run left for this one's checkpoint to write), then a bounded wait
// until no other session is active (the last run's backends have exited) and no autovacuum
// worker runs. What it found is recorded with the run; a server that does not settle within the
// bound is recorded so, not waited for longer.
#pragma once

#include "lab/store/run_record.hpp"
#include "pg/connection.hpp"

#include <chrono>

namespace pglab::lab::run {

/// How long to wait for a server to settle after its CHECKPOINT, and how often to look.
struct SettleLimits {
    std::chrono::milliseconds bound{60'000};
    std::chrono::milliseconds poll{50};
};

/// Settles the server `conn` reaches (the connection itself does not count as a session).
/// Stops early, unsettled, when SIGINT or SIGTERM arrived.
store::SettleRecord settle_server(pg::Connection& conn, const SettleLimits& limits = {});

} // namespace pglab::lab::run
