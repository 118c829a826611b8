// util: SIGINT/SIGTERM and deadlines as one stop request.
#include "util/stop_signal.hpp"

#include <utility>

namespace pglab::util {

std::atomic<int> g_stop_signal{0};

namespace {

/// Nesting depth of StopSignals scopes (they are made and destroyed by one thread).
std::atomic<int> g_scopes{0};

void on_stop_signal(int sig) {
    g_stop_signal.store(sig);
}

} // namespace

void request_deadline_stop() {
    int expected = 0;
    g_stop_signal.compare_exchange_strong(expected, k_stop_deadline);
}

void clear_deadline_stop() {
    int expected = k_stop_deadline;
    g_stop_signal.compare_exchange_strong(expected, 0);
}

StopSignals::StopSignals(Repeat repeat) {
    if (g_scopes.fetch_add(1) > 0) {
        return; // an outer scope owns the handlers and the request
    }
    m_outermost = true;
    g_stop_signal.store(0);

    struct sigaction sa {};

    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = repeat == Repeat::ends_process ? SA_RESETHAND : 0;
    for (const auto& [sig, old] : {std::pair{SIGINT, &m_old_int}, {SIGTERM, &m_old_term}}) {
        sigaction(sig, nullptr, old);
        if (old->sa_handler != SIG_IGN) {
            sigaction(sig, &sa, nullptr);
        }
    }
}

StopSignals::~StopSignals() {
    g_scopes.fetch_sub(1);
    if (m_outermost) {
        sigaction(SIGINT, &m_old_int, nullptr);
        sigaction(SIGTERM, &m_old_term, nullptr);
    }
}

} // namespace pglab::util
