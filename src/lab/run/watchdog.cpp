// lab/run: signals and deadlines turned into cancelled statements.
#include "lab/run/watchdog.hpp"

#include "util/stop_signal.hpp"

namespace pglab::lab::run {

namespace {

/// How often the thread looks at the clock and the stop request: the lateness of a deadline.
constexpr auto k_poll = std::chrono::milliseconds(20);

/// How often statements are cancelled again while a signal's stop is pending.
constexpr auto k_recancel = std::chrono::seconds(1);

} // namespace

Watchdog::Watchdog(SessionBackends& backends)
    : m_backends(backends), m_thread([this] { watch(); }) {}

Watchdog::~Watchdog() {
    m_done.store(true);
    m_thread.join();
}

void Watchdog::arm(Clock::time_point deadline) {
    m_fired.store(false);
    m_deadline.store(deadline.time_since_epoch().count());
}

void Watchdog::disarm() {
    m_deadline.store(0);
    util::clear_deadline_stop();
}

void Watchdog::watch() {
    auto last_cancel = Clock::time_point{};
    while (!m_done.load()) {
        const auto now = Clock::now();
        const Clock::rep deadline = m_deadline.load();
        if (deadline != 0 && !m_fired.load() && now.time_since_epoch().count() >= deadline) {
            m_fired.store(true);
            util::request_deadline_stop();
            m_backends.cancel_all();
        }
        if (util::stop_signalled() && now - last_cancel >= k_recancel) {
            m_backends.cancel_all();
            last_cancel = now;
        }
        std::this_thread::sleep_for(k_poll);
    }
}

} // namespace pglab::lab::run
