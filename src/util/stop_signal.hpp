// util: the one stop request of the process. SIGINT and SIGTERM set it (through the handlers a
// StopSignals installs), and so may a deadline of the lab (a `run_timeout` that passed): the bench
// workers poll it between transactions, the lab's plan loop and steps between their parts.
#pragma once

#include <atomic>
#include <csignal>

namespace pglab::util {

/// What asked the work in progress to stop: 0 nothing, a signal number (SIGINT, SIGTERM), or
/// k_stop_deadline. Written by signal handlers (lock-free), read anywhere.
extern std::atomic<int> g_stop_signal;

/// The value of g_stop_signal when a deadline, not a signal, asked to stop.
constexpr int k_stop_deadline = -1;

/// Whether a stop was requested (by a signal or a deadline).
inline bool stop_requested() {
    return g_stop_signal.load(std::memory_order_relaxed) != 0;
}

/// Whether a signal (not a deadline) asked to stop.
inline bool stop_signalled() {
    return g_stop_signal.load(std::memory_order_relaxed) > 0;
}

/// Asks to stop because a deadline passed, unless a signal already asked (a signal wins).
void request_deadline_stop();

/// Withdraws a deadline's stop request (a signal's stays): the next step may run.
void clear_deadline_stop();

/// While alive, SIGINT and SIGTERM set g_stop_signal instead of ending the process; the previous
/// handlers come back with the destructor. A signal inherited as ignored (`cmd &` in a script,
/// nohup) stays ignored. Scopes nest: an inner scope (a bench run inside `pglab run`) changes
/// nothing, so the outer owner keeps its handlers and sees the same request.
class StopSignals {
public:
    enum class Repeat {
        ends_process, ///< a second signal ends the process at once (SA_RESETHAND): pgbench's way
        is_noted      ///< every signal only sets the request: an orchestrator that must clean up
    };

    /// Clears the request (outermost scope only) and installs the handlers.
    explicit StopSignals(Repeat repeat);
    ~StopSignals();

    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

private:
    bool m_outermost = false;

    struct sigaction m_old_int {};

    struct sigaction m_old_term {};
};

} // namespace pglab::util
