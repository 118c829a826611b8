// lab/run: what a measured step's snapshots wait for, so that the statistics views hold the step
// and only it. A session flushes its statistics at the end of a transaction at most once a
// second (the rest when it has been idle a while); a backend flushes them as it exits. So before
// each snapshot pglab asks the run's idle sessions on the server to flush now
// (pg_stat_force_next_flush(), PostgreSQL 15+: the flush is done when the call returns), and
// before the closing one it waits until the client backends the step started (a bench's clients,
// an init's connection, a shell command's) have exited. Without this a VACUUM in a session read
// 0 WAL records: docs/probes.md.
#pragma once

#include "util/result.hpp"

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pglab::pg {
class Connection;
}

namespace pglab::lab::run {

class ServerSet;

/// Asks each session of this run on `server` to flush its statistics, unless it has a statement
/// still running (`wait = false`, `expect_blocked`) or is inside a transaction (its statistics
/// wait for their end); the sessions it could not ask and why, for the step's probe notes.
/// Nothing before PostgreSQL 15 (no way to ask: the WAL check of the closing snapshot tells
/// whether they arrived).
std::vector<std::string> flush_session_statistics(ServerSet& servers, const std::string& server);

/// The backends of this run's sessions on `server` (open now).
std::set<int> session_backends(const ServerSet& servers, const std::string& server);

/// The client backends of `probe`'s server now, by pid, the probe connection's own left out.
Result<std::set<int>> client_backends(pg::Connection& probe);

/// Waits, at most `limit`, until every client backend of `probe`'s server that is neither in
/// `before` nor in `ours` has exited (and so has flushed its statistics). A note when some are
/// still there, or when pg_stat_activity could not be read.
std::optional<std::string> wait_for_step_backends(pg::Connection& probe,
                                                  const std::set<int>& before,
                                                  const std::set<int>& ours,
                                                  std::chrono::milliseconds limit);

} // namespace pglab::lab::run
