// RunResult merges (src/bench/run_result.cpp): what the report and the JSON export read is the
// sum of the workers' statistics. Kept with the output tests because tests/unit/bench belongs
// to the engine.
#include "bench/run_result.hpp"

#include <gtest/gtest.h>

namespace pglab::bench {
namespace {

TxStats sample(int64_t base) {
    TxStats s;
    s.count = base;
    s.skipped = base + 1;
    s.serialization_failures = base + 2;
    s.deadlock_failures = base + 3;
    s.retried = base + 4;
    s.retries = base + 5;
    s.late = base + 6;
    s.latency_us.add(static_cast<double>(base * 100));
    s.lag_us.add(static_cast<double>(base));
    s.histogram.record(base * 100);
    s.service_histogram.record(base * 50);
    return s;
}

TEST(RunResultMergeTest, TxStatsAddsEverything) {
    TxStats a = sample(10);
    a.merge(sample(20));
    EXPECT_EQ(a.count, 30);
    EXPECT_EQ(a.skipped, 32);
    EXPECT_EQ(a.serialization_failures, 34);
    EXPECT_EQ(a.deadlock_failures, 36);
    EXPECT_EQ(a.failures(), 70);
    EXPECT_EQ(a.retried, 38);
    EXPECT_EQ(a.retries, 40);
    EXPECT_EQ(a.late, 42);
    EXPECT_EQ(a.latency_us.count, 2);
    EXPECT_DOUBLE_EQ(a.latency_us.min, 1000);
    EXPECT_DOUBLE_EQ(a.latency_us.max, 2000);
    EXPECT_DOUBLE_EQ(a.lag_us.sum, 30);
    EXPECT_EQ(a.histogram.count(), 2);
    EXPECT_EQ(a.histogram.max(), 2000);
    EXPECT_EQ(a.service_histogram.min(), 500);
}

TEST(RunResultMergeTest, MergeWithEmptyIsIdentity) {
    TxStats a = sample(5);
    a.merge(TxStats{});
    EXPECT_EQ(a.count, 5);
    EXPECT_DOUBLE_EQ(a.latency_us.min, 500);
    TxStats e;
    e.merge(sample(5));
    EXPECT_DOUBLE_EQ(e.latency_us.min, 500);
    EXPECT_EQ(e.histogram.min(), 500);
}

TEST(RunResultMergeTest, ScriptStatsMergesCommandsByIndex) {
    ScriptStats a;
    a.commands.resize(1);
    a.commands[0].elapsed_us.add(10);
    a.commands[0].failures = 1;
    ScriptStats b;
    b.commands.resize(2);
    b.commands[0].elapsed_us.add(30);
    b.commands[0].retries = 2;
    b.commands[1].failures = 4;
    a.merge(b);
    ASSERT_EQ(a.commands.size(), 2u);
    EXPECT_EQ(a.commands[0].elapsed_us.count, 2);
    EXPECT_DOUBLE_EQ(a.commands[0].elapsed_us.mean(), 20);
    EXPECT_EQ(a.commands[0].failures, 1);
    EXPECT_EQ(a.commands[0].retries, 2);
    EXPECT_EQ(a.commands[1].failures, 4);
}

} // namespace
} // namespace pglab::bench
