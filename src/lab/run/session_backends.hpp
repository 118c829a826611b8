// lab/run: the backends of pglab's SQL sessions, for a cancel from another thread.
#pragma once

#include "pg/conn_params.hpp"

#include <mutex>
#include <utility>
#include <vector>

namespace pglab::lab::run {

/// The backends of pglab's SQL sessions, so that another thread can cancel what they run when
/// SIGINT/SIGTERM arrives while a step waits for a statement (`SELECT pg_sleep(60)`). Thread-safe.
class SessionBackends {
public:
    /// A session's backend `pid` on the server reached with `params`.
    void add(const pg::ConnParams& params, int pid);

    /// A throwaway cluster of the run, reached with `params`: every client backend on it is
    /// pglab's (init and bench steps' connections included), so cancel_all() cancels them all.
    void add_cluster(const pg::ConnParams& params);

    /// Forgets every backend and cluster (their sessions closed at the end of a run).
    void clear();

    /// Sends pg_cancel_backend() for every backend known, and every client backend of the
    /// clusters known, through one new connection per server. Best effort: errors are ignored.
    void cancel_all();

private:
    std::mutex m_mutex;
    std::vector<std::pair<pg::ConnParams, int>> m_backends;
    std::vector<pg::ConnParams> m_clusters;
};

} // namespace pglab::lab::run
