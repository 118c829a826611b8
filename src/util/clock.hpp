// Time as pgbench keeps it: int64 microseconds. Monotonic for durations, wall clock for logs.
#pragma once

#include <cstdint>
#include <ctime>

namespace pglab {

/// Microseconds, the one time unit of the benchmark engine.
using usec_t = int64_t;

/// CLOCK_MONOTONIC in microseconds: for every duration and deadline.
inline usec_t now_us() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<usec_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

/// CLOCK_REALTIME in microseconds since the Unix epoch: for log timestamps only.
inline usec_t wall_now_us() {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<usec_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

} // namespace pglab
