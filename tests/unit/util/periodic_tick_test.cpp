// util/periodic_tick: a descriptor that becomes readable at its interval, quiet before it, and
// closed by stop().
#include "util/periodic_tick.hpp"

#include <gtest/gtest.h>

#include <poll.h>

namespace {

using pglab::util::PeriodicTick;

/// Whether `fd` is readable within `timeout_ms` (a guard against a hang, not a measure).
bool readable(int fd, int timeout_ms) {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN) != 0;
}

TEST(PeriodicTick, IsQuietUntilItsIntervalHasPassed) {
    PeriodicTick tick;
    EXPECT_EQ(tick.fd(), -1);
    ASSERT_TRUE(tick.start(3600LL * 1000000)); // an hour: nothing can be due yet
    ASSERT_GE(tick.fd(), 0);
    EXPECT_FALSE(readable(tick.fd(), 0));
}

TEST(PeriodicTick, TicksAgainAfterEachAcknowledgement) {
    PeriodicTick tick;
    ASSERT_TRUE(tick.start(1000));
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(readable(tick.fd(), 10000)) << "tick " << i;
        tick.acknowledge();
    }
}

TEST(PeriodicTick, StopClosesTheDescriptorAndStartOpensANewOne) {
    PeriodicTick tick;
    ASSERT_TRUE(tick.start(1000));
    tick.stop();
    EXPECT_EQ(tick.fd(), -1);
    tick.stop(); // twice is harmless
    ASSERT_TRUE(tick.start(1000));
    EXPECT_TRUE(readable(tick.fd(), 10000));
}

} // namespace
