// LatencyHistogram: layout, percentiles against exact sorted-array percentiles, merge,
// clamping and the lossless text form.
#include "stats/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace pglab::stats {
namespace {

/// The exact value at `p` percent with HdrHistogram's rank rule.
int64_t exact_percentile(const std::vector<int64_t>& sorted, double p) {
    auto rank = static_cast<int64_t>(p / 100.0 * static_cast<double>(sorted.size()) + 0.5);
    rank = std::clamp<int64_t>(rank, 1, static_cast<int64_t>(sorted.size()));
    return sorted[static_cast<size_t>(rank - 1)];
}

void expect_percentiles_close(const std::vector<int64_t>& values) {
    LatencyHistogram h;
    for (int64_t v : values) {
        h.record(v);
    }
    std::vector<int64_t> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    for (double p : {0.0, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99, 100.0}) {
        const int64_t exact = exact_percentile(sorted, p);
        const int64_t got = h.value_at_percentile(p);
        EXPECT_GE(got, exact) << "p" << p;
        EXPECT_LE(static_cast<double>(got), static_cast<double>(exact) * 1.001 + 1e-9) << "p" << p;
    }
    EXPECT_EQ(h.min(), sorted.front());
    EXPECT_EQ(h.max(), sorted.back());
    EXPECT_EQ(h.count(), static_cast<int64_t>(values.size()));
}

TEST(LatencyHistogramTest, EmptyReportsZeros) {
    LatencyHistogram h;
    EXPECT_EQ(h.count(), 0);
    EXPECT_EQ(h.min(), 0);
    EXPECT_EQ(h.max(), 0);
    EXPECT_EQ(h.mean(), 0.0);
    EXPECT_EQ(h.stddev(), 0.0);
    EXPECT_EQ(h.value_at_percentile(50), 0);
    EXPECT_TRUE(h.buckets().empty());
}

TEST(LatencyHistogramTest, SlotsAreContiguousAndPrecise) {
    // Every slot's range starts right after the previous one and is at most 1/1024 wide.
    int64_t next = 0;
    for (size_t i = 0; i < LatencyHistogram::slot_count(); ++i) {
        const int64_t lo = LatencyHistogram::slot_lowest_value(i);
        const int64_t hi = LatencyHistogram::slot_highest_value(i);
        ASSERT_EQ(lo, next) << i;
        ASSERT_EQ(LatencyHistogram::slot_of(lo), i);
        if (hi <= LatencyHistogram::k_max_value_us) {
            ASSERT_EQ(LatencyHistogram::slot_of(hi), i);
        }
        ASSERT_LE(static_cast<double>(hi - lo + 1), std::max(1.0, static_cast<double>(lo) / 1024));
        next = hi + 1;
    }
    EXPECT_GT(next, LatencyHistogram::k_max_value_us);
    EXPECT_GE(LatencyHistogram::k_max_value_us, int64_t{3600} * 1000000);
}

TEST(LatencyHistogramTest, SmallValuesAreExact) {
    LatencyHistogram h;
    for (int64_t v = 0; v < 2048; ++v) {
        h.record(v);
    }
    EXPECT_EQ(h.value_at_percentile(50), 1023);
    EXPECT_EQ(h.value_at_percentile(100), 2047);
    EXPECT_EQ(h.buckets().size(), 2048u);
    EXPECT_DOUBLE_EQ(h.mean(), 1023.5);
}

TEST(LatencyHistogramTest, UniformPercentilesWithinPrecision) {
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<int64_t> dist(1, 10'000'000);
    std::vector<int64_t> values(200'000);
    for (auto& v : values) {
        v = dist(rng);
    }
    expect_percentiles_close(values);
}

TEST(LatencyHistogramTest, LogNormalPercentilesWithinPrecision) {
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> dist(7.0, 1.5); // median ~1.1 ms, long tail
    std::vector<int64_t> values(200'000);
    for (auto& v : values) {
        v = static_cast<int64_t>(dist(rng)) + 1;
    }
    expect_percentiles_close(values);
}

TEST(LatencyHistogramTest, ConstantValue) {
    std::vector<int64_t> values(1000, 123'456);
    expect_percentiles_close(values);
    LatencyHistogram h;
    h.record_n(123'456, 1000);
    EXPECT_EQ(h.value_at_percentile(50), 123'456); // clamped to the exact max
    EXPECT_DOUBLE_EQ(h.mean(), 123'456.0);
    EXPECT_DOUBLE_EQ(h.stddev(), 0.0);
}

TEST(LatencyHistogramTest, MeanAndStddevAreExact) {
    LatencyHistogram h;
    for (int64_t v : {2, 4, 4, 4, 5, 5, 7, 9}) {
        h.record(v * 1000);
    }
    EXPECT_DOUBLE_EQ(h.mean(), 5000.0);
    EXPECT_DOUBLE_EQ(h.stddev(), 2000.0);
}

TEST(LatencyHistogramTest, MergeEqualsRecordingAll) {
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<int64_t> dist(0, 50'000'000);
    LatencyHistogram all;
    LatencyHistogram a;
    LatencyHistogram b;
    for (int i = 0; i < 50'000; ++i) {
        const int64_t v = dist(rng);
        all.record(v);
        (i % 3 == 0 ? a : b).record(v);
    }
    a.merge(b);
    EXPECT_EQ(a.count(), all.count());
    EXPECT_EQ(a.min(), all.min());
    EXPECT_EQ(a.max(), all.max());
    EXPECT_EQ(a.buckets(), all.buckets());
    EXPECT_NEAR(a.mean(), all.mean(), 1e-6);
    for (double p : {50.0, 90.0, 99.0, 99.9}) {
        EXPECT_EQ(a.value_at_percentile(p), all.value_at_percentile(p));
    }
}

TEST(LatencyHistogramTest, MergeIntoEmptyAndFromEmpty) {
    LatencyHistogram a;
    LatencyHistogram empty;
    a.record(500);
    a.merge(empty);
    EXPECT_EQ(a.min(), 500);
    empty.merge(a);
    EXPECT_EQ(empty.min(), 500);
    EXPECT_EQ(empty.max(), 500);
    EXPECT_EQ(empty.count(), 1);
}

TEST(LatencyHistogramTest, LargeAndNegativeValuesClamp) {
    LatencyHistogram h;
    h.record(LatencyHistogram::k_max_value_us + 1);
    h.record(INT64_MAX);
    h.record(-5);
    EXPECT_EQ(h.count(), 3);
    EXPECT_EQ(h.clamped(), 2);
    EXPECT_EQ(h.max(), LatencyHistogram::k_max_value_us);
    EXPECT_EQ(h.min(), 0);
    EXPECT_EQ(h.value_at_percentile(100), LatencyHistogram::k_max_value_us);
    EXPECT_EQ(h.value_at_percentile(10), 0);
}

TEST(LatencyHistogramTest, OneHourIsWithinPrecision) {
    LatencyHistogram h;
    const int64_t hour = int64_t{3600} * 1000000;
    h.record(hour);
    h.record(1);
    EXPECT_EQ(h.clamped(), 0);
    EXPECT_EQ(h.value_at_percentile(100), hour);
    EXPECT_EQ(h.value_at_percentile(50), 1);
}

TEST(LatencyHistogramTest, ResetForgetsEverything) {
    LatencyHistogram h;
    h.record(10);
    h.record(LatencyHistogram::k_max_value_us * 2);
    h.reset();
    EXPECT_EQ(h.count(), 0);
    EXPECT_EQ(h.clamped(), 0);
    EXPECT_TRUE(h.buckets().empty());
    h.record(7);
    EXPECT_EQ(h.min(), 7);
    EXPECT_EQ(h.max(), 7);
}

TEST(LatencyHistogramTest, SerializeRoundTrip) {
    std::mt19937_64 rng(3);
    std::lognormal_distribution<double> dist(8.0, 2.0);
    LatencyHistogram h;
    for (int i = 0; i < 10'000; ++i) {
        h.record(static_cast<int64_t>(dist(rng)));
    }
    h.record(LatencyHistogram::k_max_value_us + 99);
    const std::string text = h.serialize();
    LatencyHistogram back;
    ASSERT_TRUE(LatencyHistogram::parse(text, back)) << text.substr(0, 200);
    EXPECT_EQ(back.count(), h.count());
    EXPECT_EQ(back.min(), h.min());
    EXPECT_EQ(back.max(), h.max());
    EXPECT_EQ(back.clamped(), h.clamped());
    EXPECT_EQ(back.sum(), h.sum());
    EXPECT_EQ(back.sum2(), h.sum2());
    EXPECT_EQ(back.buckets(), h.buckets());
    EXPECT_EQ(back.serialize(), text);
}

TEST(LatencyHistogramTest, SerializeEmptyRoundTrip) {
    LatencyHistogram h;
    LatencyHistogram back;
    back.record(5);
    ASSERT_TRUE(LatencyHistogram::parse(h.serialize(), back));
    EXPECT_EQ(back.count(), 0);
    EXPECT_EQ(back.serialize(), h.serialize());
}

TEST(LatencyHistogramTest, SerializeFormat) {
    LatencyHistogram h;
    h.record(3);
    h.record(3);
    h.record(5000); // slot [5000, 5003]
    EXPECT_EQ(h.serialize(), "pglab.hist/1 count=3 min=3 max=5000 sum=5006 sum2=25000018 clamped=0 "
                             "slots=3:2,5003:1");
}

TEST(LatencyHistogramTest, ParseRejectsMalformed) {
    LatencyHistogram out;
    const char* bad[] = {
        "",
        "pglab.hist/2 count=0 min=0 max=0 sum=0 sum2=0 clamped=0 slots=",
        "pglab.hist/1 count=1 min=3 max=3 sum=3 sum2=9 clamped=0 slots=",
        "pglab.hist/1 count=1 min=3 max=3 sum=3 sum2=9 clamped=0 slots=3:2",
        "pglab.hist/1 count=2 min=3 max=4 sum=7 sum2=25 clamped=0 slots=4:1,3:1",
        "pglab.hist/1 count=1 min=3 max=3 sum=x sum2=9 clamped=0 slots=3:1",
        "pglab.hist/1 count=1 min=3 max=3 sum=3 sum2=9 clamped=0 slots=3:1,",
        "pglab.hist/1 count=1 min=3 max=3 sum=3 sum2=9 slots=3:1",
        "pglab.hist/1 count=1 min=3 max=3 sum=3 sum2=9 clamped=0 slots=-3:1",
        "pglab.hist/1 count=1 min=3 max=3 sum=3 sum2=9 clamped=0 slots=99999999999999:1",
    };
    for (const char* text : bad) {
        out.record(1);
        EXPECT_FALSE(LatencyHistogram::parse(text, out)) << text;
        EXPECT_EQ(out.count(), 0) << text;
    }
}

} // namespace
} // namespace pglab::stats
