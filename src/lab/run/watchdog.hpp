// lab/run: the thread that makes stop requests stop work that waits on a server. On SIGINT or
// SIGTERM it cancels the statements of pglab's sessions (and again every second while the plan
// is still ending); when the run's deadline (`run_timeout`) passes it requests a stop
// (util/stop_signal: a bench run ends, a sleep returns) and cancels the same statements, once.
// Internal to lab/run.
#pragma once

#include "lab/run/servers.hpp"

#include <atomic>
#include <chrono>
#include <thread>

namespace pglab::lab::run {

class Watchdog {
public:
    using Clock = std::chrono::steady_clock;

    explicit Watchdog(SessionBackends& backends);
    ~Watchdog();

    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    /// Watches `deadline` from now on (a new run); forgets that an earlier one passed.
    void arm(Clock::time_point deadline);

    /// No deadline any more (the run ended); withdraws its stop request.
    void disarm();

    /// Whether the armed deadline has passed (its stop requested, its statements cancelled).
    bool fired() const { return m_fired.load(); }

private:
    void watch();

    SessionBackends& m_backends;
    std::atomic<Clock::rep> m_deadline{0}; ///< time_since_epoch of the deadline; 0 = none
    std::atomic<bool> m_fired{false};
    std::atomic<bool> m_done{false};
    std::thread m_thread;
};

} // namespace pglab::lab::run
