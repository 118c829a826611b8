// lab/probe: the wait-event sampler's pure parts: the name each pg_stat_activity row is counted
// under, averages over samples (a wait seen in one sample of two averages half a session; the
// run queue only when every sample read it), and the procs_running line of /proc/stat.
#include "lab/probe/wait_sampler.hpp"

#include <gtest/gtest.h>

#include <map>

namespace pglab::lab::probe {
namespace {

std::map<std::string, double> by_name(const Deltas& deltas) {
    std::map<std::string, double> out;
    for (const auto& d : deltas) {
        out[d.name] = d.value;
    }
    return out;
}

TEST(ProbeWaits, EachStateAndWaitHasItsName) {
    EXPECT_EQ(wait_name({"active", "", "", 1}), "wait.CPU");
    EXPECT_EQ(wait_name({"active", "LWLock", "WALWrite", 1}), "wait.LWLock.WALWrite");
    EXPECT_EQ(wait_name({"active", "Lock", "transactionid", 1}), "wait.Lock.transactionid");
    EXPECT_EQ(wait_name({"fastpath function call", "", "", 1}), "wait.CPU");
    EXPECT_EQ(wait_name({"idle in transaction", "Client", "ClientRead", 1}),
              "wait.idle_in_transaction");
    EXPECT_EQ(wait_name({"idle in transaction (aborted)", "Client", "ClientRead", 1}),
              "wait.idle_in_transaction");
    EXPECT_EQ(wait_name({"idle", "Client", "ClientRead", 1}), "wait.idle");
    // No state (track_activities off) but a wait event: the event is what is known.
    EXPECT_EQ(wait_name({"", "IO", "WALSync", 1}), "wait.IO.WALSync");
    EXPECT_EQ(wait_name({"", "", "", 1}), "wait.unknown");
    EXPECT_EQ(wait_name({"disabled", "", "", 1}), "wait.unknown");
}

TEST(ProbeWaits, NineteensRenamedBufferWaitsHaveOneNameOnEveryVersion) {
    // Up to 18.
    EXPECT_EQ(wait_family_name({"active", "BufferPin", "BufferPin", 1}), "wait.buffer_pin");
    EXPECT_EQ(wait_family_name({"active", "LWLock", "BufferContent", 1}), "wait.buffer_content");
    // From 19.
    EXPECT_EQ(wait_family_name({"active", "Buffer", "BufferCleanup", 1}), "wait.buffer_pin");
    for (const char* event : {"BufferShared", "BufferExclusive", "BufferShareExclusive"}) {
        EXPECT_EQ(wait_family_name({"active", "Buffer", event, 1}), "wait.buffer_content") << event;
    }
    // Anything else, and a session that is not waiting, has none.
    EXPECT_EQ(wait_family_name({"active", "LWLock", "BufferMapping", 1}), std::nullopt);
    EXPECT_EQ(wait_family_name({"active", "LWLock", "WALWrite", 1}), std::nullopt);
    EXPECT_EQ(wait_family_name({"idle", "Buffer", "BufferCleanup", 1}), std::nullopt);

    WaitTally tally;
    tally.add({{"active", "Buffer", "BufferShared", 2}, {"active", "Buffer", "BufferExclusive", 1}},
              std::nullopt);
    const auto avg = by_name(tally.averages());
    EXPECT_DOUBLE_EQ(avg.at("wait.Buffer.BufferShared"), 2.0); // the server's own name stays
    EXPECT_DOUBLE_EQ(avg.at("wait.buffer_content"), 3.0);
    EXPECT_DOUBLE_EQ(avg.at("wait.sessions"), 3.0); // each session counted once
}

TEST(ProbeWaits, AveragesAreSessionsPerSample) {
    WaitTally tally;
    EXPECT_TRUE(tally.averages().empty()); // no sample, no values
    tally.add({{"active", "", "", 3}, {"active", "LWLock", "WALWrite", 2}, {"idle", "", "", 5}}, 4);
    tally.add({{"active", "", "", 1},
               {"idle in transaction", "Client", "ClientRead", 7},
               {"idle in transaction (aborted)", "Client", "ClientRead", 1}},
              2);
    const auto avg = by_name(tally.averages());
    EXPECT_EQ(avg.at("wait.samples"), 2);
    EXPECT_DOUBLE_EQ(avg.at("wait.sessions"), (10 + 9) / 2.0);
    EXPECT_DOUBLE_EQ(avg.at("wait.CPU"), 2.0);
    EXPECT_DOUBLE_EQ(avg.at("wait.LWLock.WALWrite"), 1.0); // seen once in two samples
    EXPECT_DOUBLE_EQ(avg.at("wait.idle"), 2.5);
    EXPECT_DOUBLE_EQ(avg.at("wait.idle_in_transaction"), 4.0);
    EXPECT_DOUBLE_EQ(avg.at("host.runnable"), 3.0);
    EXPECT_EQ(avg.size(), 7u);
}

TEST(ProbeWaits, TheRunQueueIsLeftOutWhenASampleMissedIt) {
    WaitTally tally;
    tally.add({{"active", "", "", 1}}, 3);
    tally.add({{"active", "", "", 1}}, std::nullopt);
    const auto avg = by_name(tally.averages());
    EXPECT_EQ(avg.count("host.runnable"), 0u);
    EXPECT_DOUBLE_EQ(avg.at("wait.CPU"), 1.0);
}

TEST(ProbeWaits, ProcsRunningIsReadFromProcStat) {
    const std::string stat = "cpu  100 0 50 900 0 0 0 0 0 0\ncpu0 50 0 25 450 0 0 0 0 0 0\n"
                             "ctxt 123456\nbtime 1700000000\nprocesses 4242\nprocs_running 7\n"
                             "procs_blocked 1\n";
    EXPECT_EQ(parse_procs_running(stat), 7);
    EXPECT_EQ(parse_procs_running("procs_running 12"), 12); // last line without a newline
    EXPECT_EQ(parse_procs_running("cpu 1 2 3\n"), std::nullopt);
    EXPECT_EQ(parse_procs_running("procs_running x\n"), std::nullopt);
    EXPECT_EQ(parse_procs_running("procs_running -1\n"), std::nullopt);
    EXPECT_EQ(parse_procs_running(""), std::nullopt);
}

} // namespace
} // namespace pglab::lab::probe
