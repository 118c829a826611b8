// Writing to a pipe or socket whose reader left, without dying of SIGPIPE.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <ctime>

namespace pglab::util {

/// Blocks SIGPIPE in this thread while alive, and swallows a SIGPIPE raised meanwhile (as libpq
/// does), so that a write to a reader that has gone fails with EPIPE instead of killing us.
class SigpipeGuard {
public:
    SigpipeGuard() {
        sigset_t pending;
        sigemptyset(&m_pipe);
        sigaddset(&m_pipe, SIGPIPE);
        sigpending(&pending);
        m_was_pending = sigismember(&pending, SIGPIPE) == 1;
        ::pthread_sigmask(SIG_BLOCK, &m_pipe, &m_old);
    }

    SigpipeGuard(const SigpipeGuard&) = delete;
    SigpipeGuard& operator=(const SigpipeGuard&) = delete;

    ~SigpipeGuard() {
        if (!m_was_pending) {
            const timespec zero{};
            while (::sigtimedwait(&m_pipe, nullptr, &zero) == SIGPIPE) {
            }
        }
        ::pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
    }

private:
    sigset_t m_pipe{};
    sigset_t m_old{};
    bool m_was_pending = false;
};

} // namespace pglab::util
