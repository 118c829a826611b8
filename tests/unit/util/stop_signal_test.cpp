// util/stop_signal: one stop request for bench and lab: signals set it, a deadline sets it only
// when no signal did, nested scopes leave the outer rules alone, a signal inherited as ignored
// stays ignored; the actions registered with it run in the handler (a cancel on a stop, a
// cleanup before a signal ends the process).
#include "util/stop_signal.hpp"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace {

using pglab::util::OnStopSignal;
using pglab::util::StopSignals;

void count(void* counter) noexcept {
    static_cast<std::atomic<int>*>(counter)->fetch_add(1);
}

void say_cleaned_up() noexcept {
    constexpr const char* text = "fatal action ran\n";
    (void)!::write(STDERR_FILENO, text, std::strlen(text));
}

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
            ASSERT_EQ(std::raise(SIGINT), 0); // the outer scope notes a second one too
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

TEST(StopSignal, AStopRunsTheRegisteredActionsWhileTheyAreRegistered) {
    const StopSignals scope(StopSignals::Repeat::is_noted);
    std::atomic<int> first{0};
    std::atomic<int> second{0};
    {
        const OnStopSignal one(count, &first);
        const OnStopSignal two(count, &second);
        ASSERT_EQ(std::raise(SIGINT), 0);
        EXPECT_EQ(first.load(), 1);
        EXPECT_EQ(second.load(), 1);
        ASSERT_EQ(std::raise(SIGTERM), 0); // every stop signal, not only the first
        EXPECT_EQ(first.load(), 2);
    }
    ASSERT_EQ(std::raise(SIGINT), 0);
    EXPECT_EQ(first.load(), 2);
    EXPECT_TRUE(pglab::util::stop_signalled());
}

TEST(StopSignalDeathTest, OutsideAScopeASignalEndsTheProcessAfterTheFatalActions) {
    EXPECT_EXIT(
        {
            pglab::util::on_fatal_signal(say_cleaned_up);
            { const StopSignals closed(StopSignals::Repeat::is_noted); }
            std::raise(SIGTERM);
            std::_Exit(4);
        },
        ::testing::KilledBySignal(SIGTERM), "fatal action ran");
}

TEST(StopSignalDeathTest, ASecondSignalEndsAnEndsProcessScope) {
    EXPECT_EXIT(
        {
            pglab::util::on_fatal_signal(say_cleaned_up);
            const StopSignals scope(StopSignals::Repeat::ends_process);
            std::raise(SIGINT);
            if (pglab::util::g_stop_signal.load() != SIGINT) {
                std::_Exit(3);
            }
            std::raise(SIGINT);
            std::_Exit(4);
        },
        ::testing::KilledBySignal(SIGINT), "fatal action ran");
}

TEST(StopSignalDeathTest, AnInterruptOnlyScopeLeavesSigtermFatal) {
    EXPECT_EXIT(
        {
            const StopSignals scope(StopSignals::Repeat::is_noted,
                                    StopSignals::Which::interrupt_only);
            std::raise(SIGINT);
            if (!pglab::util::stop_signalled()) {
                std::_Exit(3);
            }
            std::raise(SIGTERM);
            std::_Exit(4);
        },
        ::testing::KilledBySignal(SIGTERM), "");
}

TEST(StopSignalDeathTest, EndingByASignalCaughtBeforeRunsTheFatalActions) {
    EXPECT_EXIT(
        {
            pglab::util::on_fatal_signal(say_cleaned_up);
            const StopSignals scope(StopSignals::Repeat::is_noted);
            std::raise(SIGINT); // noted: the program reports, then ends as the signal would
            pglab::util::end_process_by_signal(SIGINT);
        },
        ::testing::KilledBySignal(SIGINT), "fatal action ran");
}

TEST(StopSignal, AForkedChildIsNotInItsParentsScope) {
    const StopSignals scope(StopSignals::Repeat::is_noted);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::raise(SIGINT);
        std::_Exit(4);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
    EXPECT_FALSE(pglab::util::stop_requested());
}

} // namespace
