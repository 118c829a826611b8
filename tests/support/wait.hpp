// Waiting for an event in a test (a file, a log line, a server state) instead of sleeping a fixed
// time: the condition is polled until it holds or a generous deadline passes.
#pragma once

#include <chrono>
#include <thread>

namespace support {

/// A deadline for events that normally take moments: long enough for a loaded 2-core machine.
constexpr std::chrono::milliseconds k_event_timeout{std::chrono::seconds(60)};

/// Polls `done()` every 20 ms until it returns true (then true) or `timeout` has passed (false).
template <class Done>
bool wait_until(Done done, std::chrono::milliseconds timeout = k_event_timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

} // namespace support
