#include "util/periodic_tick.hpp"

#include <sys/timerfd.h>
#include <unistd.h>

#include <cstdint>

namespace pglab::util {

bool PeriodicTick::start(usec_t interval_us) {
    if (m_fd.get() < 0) {
        m_fd = UniqueFd(::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC));
        if (m_fd.get() < 0) {
            return false;
        }
    }
    itimerspec spec{};
    spec.it_interval.tv_sec = static_cast<time_t>(interval_us / 1000000);
    spec.it_interval.tv_nsec = static_cast<long>((interval_us % 1000000) * 1000);
    spec.it_value = spec.it_interval;
    if (::timerfd_settime(m_fd.get(), 0, &spec, nullptr) != 0) {
        stop();
        return false;
    }
    return true;
}

void PeriodicTick::acknowledge() {
    uint64_t expirations = 0;
    // Non-blocking: nothing to read (EAGAIN) only means another look found the tick first.
    (void)!::read(m_fd.get(), &expirations, sizeof expirations);
}

} // namespace pglab::util
