#include "stats/coarse_histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace pglab::stats {
namespace {

TEST(CoarseHistogramTest, SlotsAreContiguousAndWithinThreePercent) {
    int64_t prev_high = -1;
    for (size_t slot = 0; slot < CoarseHistogram::k_slots; ++slot) {
        const int64_t high = CoarseHistogram::slot_highest_value(slot);
        const int64_t low = prev_high + 1;
        EXPECT_EQ(CoarseHistogram::slot_of(low), slot);
        EXPECT_EQ(CoarseHistogram::slot_of(high), slot);
        EXPECT_LE(static_cast<double>(high - low), std::max(0.0, low / 32.0));
        prev_high = high;
    }
    EXPECT_EQ(CoarseHistogram::slot_of(CoarseHistogram::k_max_value_us),
              CoarseHistogram::k_slots - 1);
}

TEST(CoarseHistogramTest, PercentilesAgreeWithSortedValues) {
    std::mt19937_64 rng(42);
    std::lognormal_distribution<double> dist(7.0, 1.0);
    std::vector<int64_t> values;
    CoarseHistogram h;
    for (int i = 0; i < 20000; ++i) {
        const auto v = static_cast<int64_t>(dist(rng));
        values.push_back(v);
        h.record(v);
    }
    std::sort(values.begin(), values.end());
    for (const double p : {50.0, 90.0, 99.0, 99.9, 100.0}) {
        const auto rank = std::max<int64_t>(1, std::llround(p / 100.0 * 20000));
        const int64_t exact = values[static_cast<size_t>(rank - 1)];
        const int64_t got = h.value_at_percentile(p);
        EXPECT_GE(got, exact) << p;
        EXPECT_LE(got, exact + exact / 32 + 1) << p;
    }
    EXPECT_EQ(h.max(), values.back());
    EXPECT_EQ(h.value_at_percentile(100.0), values.back());
}

TEST(CoarseHistogramTest, MergeResetAndClamp) {
    CoarseHistogram a;
    CoarseHistogram b;
    a.record(10);
    b.record(1000);
    b.record(-5);
    b.record(CoarseHistogram::k_max_value_us * 2);
    a.merge(b);
    EXPECT_EQ(a.count(), 4);
    EXPECT_EQ(a.max(), CoarseHistogram::k_max_value_us);
    EXPECT_EQ(a.value_at_percentile(25.0), 0);
    a.reset();
    EXPECT_EQ(a.count(), 0);
    EXPECT_EQ(a.value_at_percentile(99.0), 0);
}

} // namespace
} // namespace pglab::stats
