// util/stop_signal: one stop request for bench and lab: signals set it, a deadline sets it only
// when no signal did, nested scopes leave the outer handlers alone, and a signal inherited as
// ignored stays ignored.
#include "util/stop_signal.hpp"

#include <gtest/gtest.h>

#include <csignal>

namespace {

using pglab::util::StopSignals;

TEST(StopSignal, ASignalIsNotedAndWinsOverADeadline) {
    const StopSignals scope(StopSignals::Repeat::is_noted);
    EXPECT_FALSE(pglab::util::stop_requested());
    pglab::util::request_deadline_stop();
    EXPECT_TRUE(pglab::util::stop_requested());
    EXPECT_FALSE(pglab::util::stop_signalled());
    pglab::util::clear_deadline_stop();
    EXPECT_FALSE(pglab::util::stop_requested());
    ASSERT_EQ(std::raise(SIGTERM), 0); // noted, the process goes on
    EXPECT_EQ(pglab::util::g_stop_signal.load(), SIGTERM);
    pglab::util::request_deadline_stop();
    pglab::util::clear_deadline_stop();
    EXPECT_EQ(pglab::util::g_stop_signal.load(), SIGTERM);
}

TEST(StopSignal, AnInnerScopeKeepsTheOuterHandlersAndRequest) {
    struct sigaction before {};

    {
        const StopSignals outer(StopSignals::Repeat::is_noted);
        sigaction(SIGINT, nullptr, &before);
        {
            const StopSignals inner(StopSignals::Repeat::ends_process);

            struct sigaction now {};

            sigaction(SIGINT, nullptr, &now);
            EXPECT_EQ(now.sa_handler, before.sa_handler);
            EXPECT_EQ(now.sa_flags & SA_RESETHAND, 0);
            ASSERT_EQ(std::raise(SIGINT), 0);
        }
        EXPECT_EQ(pglab::util::g_stop_signal.load(), SIGINT); // seen by the outer owner

        struct sigaction after {};

        sigaction(SIGINT, nullptr, &after);
        EXPECT_EQ(after.sa_handler, before.sa_handler);
    }
}

TEST(StopSignal, AnIgnoredSignalStaysIgnored) {
    struct sigaction ignore {};

    ignore.sa_handler = SIG_IGN;

    struct sigaction old {};

    sigaction(SIGTERM, &ignore, &old);
    {
        const StopSignals scope(StopSignals::Repeat::ends_process);

        struct sigaction now {};

        sigaction(SIGTERM, nullptr, &now);
        EXPECT_EQ(now.sa_handler, SIG_IGN);
    }
    sigaction(SIGTERM, &old, nullptr);
}

} // namespace
