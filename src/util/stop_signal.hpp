// util: the one stop request of the process, and the only place that handles SIGINT and SIGTERM
// (and the fatal signals, for the cleanup that must run before they end the process).
//
// Inside a StopSignals scope, SIGINT and SIGTERM set the stop request, and so may a deadline of
// the lab (a `run_timeout` that passed): the bench workers poll it between transactions, the
// lab's plan loop and steps between their parts, pgbench -i's COPY loop between rows. What must
// happen at once, inside the handler, registers with it: OnStopSignal (a cancel request to the
// server for a running statement), on_fatal_signal (throwaway clusters removed when a signal is
// about to end the process). Outside a scope a signal ends the process as its default action
// does, after those fatal actions.
#pragma once

#include <atomic>
#include <csignal>

namespace pglab::util {

/// What asked the work in progress to stop: 0 nothing, a signal number (SIGINT, SIGTERM), or
/// k_stop_deadline. Written by the signal handler (lock-free), read anywhere.
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

/// While alive, SIGINT (and SIGTERM, unless `interrupt_only`) set g_stop_signal instead of ending
/// the process. A signal inherited as ignored (`cmd &` in a script, nohup) stays ignored. Scopes
/// nest: an inner scope (a bench run or pgbench -i inside `pglab run`) changes nothing, so the
/// outer owner keeps its rules and sees the same request. A scope counts only in the process
/// that opened it (a forked child ends by the signal).
class StopSignals {
public:
    enum class Repeat {
        ends_process, ///< a second signal ends the process: pgbench's way
        is_noted      ///< every signal only sets the request: an orchestrator that must clean up
    };

    enum class Which {
        interrupt_and_terminate, ///< SIGINT and SIGTERM
        interrupt_only           ///< SIGINT; SIGTERM ends the process (pgbench -i's cancel handler)
    };

    /// Clears the request (outermost scope only) and installs the handlers if not done yet.
    explicit StopSignals(Repeat repeat, Which which = Which::interrupt_and_terminate);
    ~StopSignals();

    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;
};

/// An action taken inside the signal handler: async-signal-safe calls only (write, PQcancel,
/// kill...), no allocation, no locks, no stdio.
using SignalAction = void (*)(void* context) noexcept;

/// While alive, `action(context)` runs in the handler each time SIGINT or SIGTERM sets the stop
/// request (inside a StopSignals scope), for example to send the server a cancel request for the
/// statement being waited for. At most 8 are registered at once; more are ignored, with a
/// warning. Registering installs the handlers if not done yet.
class OnStopSignal {
public:
    OnStopSignal(SignalAction action, void* context);
    ~OnStopSignal();

    OnStopSignal(const OnStopSignal&) = delete;
    OnStopSignal& operator=(const OnStopSignal&) = delete;

private:
    int m_slot = -1;
};

/// Ends the process by `sig` (SIGINT, SIGTERM) as its default action does, after the fatal
/// actions: for a program that caught the signal, reported what it had, and must now end as
/// pgbench does, so that its caller (a shell, a harness) sees the signal.
[[noreturn]] void end_process_by_signal(int sig);

/// Registers `action` for the rest of the process's life: it runs when a signal is about to end
/// the process, before the signal's default action does. These signals are SIGINT and SIGTERM
/// outside a scope (or repeated in an ends_process scope), and SIGHUP, SIGQUIT, SIGPIPE, SIGABRT,
/// SIGSEGV, SIGBUS, SIGFPE and SIGILL wherever their action is still the default when the first
/// fatal action is registered. Other signals are blocked while the actions run. At most 4.
void on_fatal_signal(void (*action)() noexcept);

} // namespace pglab::util
