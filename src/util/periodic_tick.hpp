// util: a file descriptor that becomes readable at a fixed interval (a timerfd), for a thread
// that sleeps in epoll and must still look around now and then (a stop request, the end of a
// second) without giving every wait a timeout: a timeout arms a kernel timer on each wait,
// which on a virtual machine costs more than the wait itself.
#pragma once

#include "util/clock.hpp"
#include "util/unique_fd.hpp"

namespace pglab::util {

class PeriodicTick {
public:
    /// Starts ticking every `interval_us` (monotonic clock). False, with errno set, when the
    /// kernel refuses: the caller then bounds its waits instead.
    bool start(usec_t interval_us);

    /// The descriptor to watch for readability; -1 before a successful start().
    int fd() const { return m_fd.get(); }

    /// Stops ticking and closes the descriptor.
    void stop() { m_fd.reset(); }

    /// Consumes the ticks that have passed, so that the descriptor is quiet until the next one.
    void acknowledge();

private:
    UniqueFd m_fd;
};

} // namespace pglab::util
