// format_progress_line: pgbench 15's progress line from two cumulative snapshots.
#include "stats/progress_line.hpp"

#include <gtest/gtest.h>

namespace pglab::stats {
namespace {

ProgressSnapshot snapshot(int64_t time_us, int64_t count, double sum, double sum2) {
    ProgressSnapshot s;
    s.time_us = time_us;
    s.count = count;
    s.latency_sum_us = sum;
    s.latency_sum2_us = sum2;
    return s;
}

TEST(ProgressLineTest, PlainLine) {
    ProgressOptions opt;
    opt.test_start_us = 1'000'000;
    // 100 tx in the 1 s interval, latencies 1 ms and 3 ms alternating: mean 2, stddev 1.
    const ProgressSnapshot last = snapshot(2'000'000, 50, 0, 0);
    ProgressSnapshot cur = snapshot(3'000'000, 150, 50 * 1000.0 + 50 * 3000.0, 50 * 1e6 + 50 * 9e6);
    cur.failures = 3;
    EXPECT_EQ(format_progress_line(last, cur, opt),
              "progress: 2.0 s, 100.0 tps, lat 2.000 ms stddev 1.000, 3 failed\n");
}

TEST(ProgressLineTest, NoTransactionsGivesZeros) {
    ProgressOptions opt;
    const ProgressSnapshot last = snapshot(0, 7, 100, 10000);
    const ProgressSnapshot cur = snapshot(5'000'000, 7, 100, 10000);
    EXPECT_EQ(format_progress_line(last, cur, opt),
              "progress: 5.0 s, 0.0 tps, lat 0.000 ms stddev 0.000, 0 failed\n");
}

TEST(ProgressLineTest, RateLimitLatencyLimitAndRetries) {
    ProgressOptions opt;
    opt.throttled = true;
    opt.latency_limit = true;
    opt.max_tries = 3;
    ProgressSnapshot last = snapshot(0, 0, 0, 0);
    ProgressSnapshot cur = snapshot(1'000'000, 4, 4 * 2500.0, 4 * 2500.0 * 2500.0);
    cur.lag_sum_us = 4 * 125.0;
    cur.skipped = 2;
    cur.retried = 1;
    cur.retries = 5;
    EXPECT_EQ(format_progress_line(last, cur, opt),
              "progress: 1.0 s, 4.0 tps, lat 2.500 ms stddev 0.000, 0 failed, lag 0.125 ms, "
              "2 skipped, 1 retried, 5 retries\n");
    opt.latency_limit = false;
    opt.max_tries = 0; // unlimited also shows retries
    EXPECT_EQ(format_progress_line(last, cur, opt),
              "progress: 1.0 s, 4.0 tps, lat 2.500 ms stddev 0.000, 0 failed, lag 0.125 ms, "
              "1 retried, 5 retries\n");
}

TEST(ProgressLineTest, SkippedNeedsRate) {
    ProgressOptions opt;
    opt.latency_limit = true;
    const ProgressSnapshot last = snapshot(0, 0, 0, 0);
    const ProgressSnapshot cur = snapshot(2'000'000, 1, 1000, 1e6);
    EXPECT_EQ(format_progress_line(last, cur, opt),
              "progress: 2.0 s, 0.5 tps, lat 1.000 ms stddev 0.000, 0 failed\n");
}

TEST(ProgressLineTest, TimestampUsesEpoch) {
    ProgressOptions opt;
    opt.timestamp = true;
    opt.epoch_shift_us = 1'700'000'000'000'000 - 5'000'000;
    const ProgressSnapshot last = snapshot(0, 0, 0, 0);
    const ProgressSnapshot cur = snapshot(5'123'456, 0, 0, 0);
    EXPECT_EQ(format_progress_line(last, cur, opt),
              "progress: 1700000000.123 s, 0.0 tps, lat 0.000 ms stddev 0.000, 0 failed\n");
}

TEST(ProgressLineTest, LateReportShowsActualTime) {
    ProgressOptions opt;
    opt.test_start_us = 0;
    const ProgressSnapshot last = snapshot(0, 0, 0, 0);
    const ProgressSnapshot cur = snapshot(10'049'999, 0, 0, 0);
    EXPECT_EQ(format_progress_line(last, cur, opt).substr(0, 18), "progress: 10.0 s, ");
}

} // namespace
} // namespace pglab::stats
