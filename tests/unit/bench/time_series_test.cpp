#include "bench/time_series.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace pglab::bench {
namespace {

SecondAccumulator second(int64_t epoch_s, int64_t count, int64_t latency_us, int64_t failures = 0) {
    SecondAccumulator a;
    a.epoch_s = epoch_s;
    for (int64_t i = 0; i < count; ++i) {
        ++a.count;
        a.latency_sum_us += static_cast<double>(latency_us);
        a.histogram.record(latency_us);
    }
    a.failures = failures;
    return a;
}

TEST(TimeSeriesTest, MergesWorkersAndFillsEmptySeconds) {
    TimeSeriesCollector c(10);
    c.add(second(100, 10, 1000));
    c.add(second(100, 30, 3000, 2));
    c.add(second(103, 5, 500));
    c.add(SecondAccumulator{}); // nothing gathered yet: ignored
    const auto s = c.finish();
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(s[0].epoch_s, 100);
    EXPECT_EQ(s[0].count, 40);
    EXPECT_EQ(s[0].failures, 2);
    EXPECT_DOUBLE_EQ(s[0].latency_sum_us, 10 * 1000.0 + 30 * 3000.0);
    EXPECT_EQ(s[0].latency_max_us, 3000);
    EXPECT_GE(s[0].latency_p99_us, 2900);
    EXPECT_LE(s[0].latency_p99_us, 3000);
    EXPECT_EQ(s[1].count, 0);
    EXPECT_EQ(s[2].count, 0);
    EXPECT_EQ(s[3].epoch_s, 103);
    EXPECT_EQ(s[3].count, 5);
}

TEST(TimeSeriesTest, VeryLateReportStillCounts) {
    TimeSeriesCollector c(0);
    c.add(second(200, 1, 100));
    for (int64_t t = 201; t < 220; ++t) {
        c.add(second(t, 1, 100));
    }
    c.add(second(200, 4, 900)); // a worker blocked for 20 s
    const auto s = c.finish();
    ASSERT_EQ(s.size(), 20u);
    EXPECT_EQ(s[0].count, 5);
    EXPECT_EQ(s[0].latency_max_us, 900);
    int64_t total = 0;
    for (const auto& x : s) {
        total += x.count;
    }
    EXPECT_EQ(total, 24);
}

TEST(TimeSeriesTest, ConcurrentWorkersAddUp) {
    TimeSeriesCollector c(60);
    std::vector<std::thread> threads;
    for (int w = 0; w < 4; ++w) {
        threads.emplace_back([&c] {
            for (int64_t t = 0; t < 60; ++t) {
                c.add(second(1000 + t, 7, 250));
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    const auto s = c.finish();
    ASSERT_EQ(s.size(), 60u);
    for (const auto& x : s) {
        EXPECT_EQ(x.count, 28);
    }
}

} // namespace
} // namespace pglab::bench
