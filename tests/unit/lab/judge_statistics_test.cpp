// Statistics of reports against values computed independently with mpmath at 30 digits
// (Student's t by root-finding on mpmath.betainc) and against the published Welch examples.
#include "lab/judge/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace pglab::lab::judge {
namespace {

// Welch's t-test examples of the Wikipedia article "Welch's t-test" (equal sizes, then
// unequal sizes and variances); published t = -2.46, df = 24.99, p = 0.021 and t = -2.22,
// df = 24.52, p = 0.036.
const std::vector<double> k_a1 = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                                  21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
const std::vector<double> k_a2 = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                                  24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
const std::vector<double> k_c1 = {19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0};
const std::vector<double> k_c2 = {28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
                                  23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3};

TEST(ReportStatisticsTest, DescriptiveStatistics) {
    const Summary s = summarize(k_a1);
    EXPECT_EQ(s.n, 15U);
    EXPECT_NEAR(s.mean, 20.82, 1e-12);
    ASSERT_TRUE(s.stddev.has_value());
    EXPECT_NEAR(*s.stddev, 2.80489368273177, 1e-12);
    EXPECT_DOUBLE_EQ(s.median, 21.0);
    EXPECT_DOUBLE_EQ(s.min, 16.9);
    EXPECT_DOUBLE_EQ(s.max, 27.5);
    // Every value positive: the interval is the geometric mean's, on the log scale.
    EXPECT_TRUE(s.log_scale);
    ASSERT_TRUE(s.ci95.has_value());
    EXPECT_NEAR(s.ci95->low, 19.1942537190141, 1e-9);
    EXPECT_NEAR(s.ci95->high, 22.2151255222306, 1e-9);
    // The same values less 20 hold negatives: the mean's t-interval, as it is.
    std::vector<double> shifted = k_a1;
    for (double& v : shifted) {
        v -= 20.0;
    }
    const Summary as_is = summarize(shifted);
    EXPECT_FALSE(as_is.log_scale);
    ASSERT_TRUE(as_is.ci95.has_value());
    EXPECT_NEAR(as_is.ci95->low, 19.2667016524512 - 20.0, 1e-9);
    EXPECT_NEAR(as_is.ci95->high, 22.3732983475488 - 20.0, 1e-9);
    ASSERT_TRUE(s.cv.has_value());
    EXPECT_NEAR(*s.cv, 2.80489368273177 / 20.82, 1e-12);
}

TEST(ReportStatisticsTest, MedianOfEvenCountAndSmallSamples) {
    const std::vector<double> even = {4, 1, 3, 2};
    EXPECT_DOUBLE_EQ(median(even), 2.5);
    const std::vector<double> one = {7.5};
    const Summary s = summarize(one);
    EXPECT_EQ(s.n, 1U);
    EXPECT_DOUBLE_EQ(s.mean, 7.5);
    EXPECT_FALSE(s.stddev.has_value());
    EXPECT_FALSE(s.ci95.has_value());
    EXPECT_FALSE(s.cv.has_value());
    EXPECT_EQ(summarize(std::vector<double>{}).n, 0U);
    const std::vector<double> zeros = {0, 0, 0};
    EXPECT_FALSE(summarize(zeros).cv.has_value());
}

TEST(ReportStatisticsTest, StudentCdf) {
    EXPECT_NEAR(student_t_cdf(2.0, 5), 0.949030260585071, 1e-12);
    EXPECT_NEAR(student_t_cdf(-1.5, 2.5), 0.123918226543148, 1e-12);
    EXPECT_DOUBLE_EQ(student_t_cdf(0, 7), 0.5);
    EXPECT_DOUBLE_EQ(student_t_cdf(std::numeric_limits<double>::infinity(), 3), 1.0);
    // Outside the domain: NaN, never an exception out of a report.
    EXPECT_TRUE(std::isnan(student_t_cdf(1.0, 0)));
    EXPECT_TRUE(std::isnan(student_t_quantile(0.975, -1)));
    EXPECT_TRUE(std::isnan(student_t_quantile(1.0, 3)));
}

struct QuantileCase {
    double p;
    double df;
    double expected;
};

TEST(ReportStatisticsTest, StudentQuantiles) {
    const std::vector<QuantileCase> cases = {
        {0.975, 1, 12.7062047361747},    {0.975, 2, 4.30265272974946},
        {0.975, 4, 2.77644510519779},    {0.975, 9, 2.2621571627982},
        {0.975, 29, 2.0452296421327},    {0.975, 24.99, 2.05958034236878},
        {0.995, 3, 5.84090930973336},    {0.95, 10, 1.81246112281168},
        {0.975, 1000, 1.96233908082641}, {0.025, 5, -2.57058183563632},
    };
    for (const auto& c : cases) {
        EXPECT_NEAR(student_t_quantile(c.p, c.df), c.expected, 1e-9 * std::fabs(c.expected))
            << "p=" << c.p << " df=" << c.df;
    }
    EXPECT_DOUBLE_EQ(student_t_quantile(0.5, 3), 0.0);
    EXPECT_TRUE(std::isnan(student_t_quantile(1.0, 3)));
    EXPECT_TRUE(std::isnan(student_t_quantile(0.9, 0)));
}

TEST(ReportStatisticsTest, WelchEqualSizes) {
    const auto r = welch(k_a1, k_a2, Scale::as_is);
    ASSERT_TRUE(r.has_value());
    EXPECT_NEAR(r->t, -2.455356398286, 1e-10);
    EXPECT_NEAR(r->df, 24.9885292902314, 1e-10);
    EXPECT_NEAR(r->p_value, 0.0213780014628671, 1e-12);
    EXPECT_NEAR(r->difference_ci.low, -3.98409626714093, 1e-9);
    EXPECT_NEAR(r->difference_ci.high, -0.349237066192405, 1e-9);
    EXPECT_NEAR(r->ratio, 0.905742459396752, 1e-12);
    ASSERT_TRUE(r->ratio_ci.bounded);
    EXPECT_NEAR(r->ratio_ci.low, 0.830564924294305, 1e-9);
    EXPECT_NEAR(r->ratio_ci.high, 0.984646005174378, 1e-9);
}

TEST(ReportStatisticsTest, WelchUnequalSizesAndVariances) {
    const auto r = welch(k_c1, k_c2, Scale::as_is);
    ASSERT_TRUE(r.has_value());
    EXPECT_NEAR(r->t, -2.22551203996985, 1e-10);
    EXPECT_NEAR(r->df, 24.5246349442573, 1e-10);
    EXPECT_NEAR(r->p_value, 0.0354845308300102, 1e-12);
    EXPECT_NEAR(r->difference_ci.low, -4.27645865012056, 1e-9);
    EXPECT_NEAR(r->difference_ci.high, -0.163541349879445, 1e-9);
    EXPECT_NEAR(r->ratio_ci.low, 0.8167577618554, 1e-9);
    EXPECT_NEAR(r->ratio_ci.high, 0.991554046811738, 1e-9);
}

TEST(ReportStatisticsTest, WelchThreeRunsOfVacuumTimes) {
    // Three VACUUM timings per version (ms), as in study S3b: few runs, small df.
    const std::vector<double> pg16 = {1595.2, 1610.8, 1570.1};
    const std::vector<double> pg17 = {1354.0, 1349.5, 1360.7};
    const auto r = welch(pg16, pg17, Scale::as_is);
    ASSERT_TRUE(r.has_value());
    EXPECT_FALSE(r->log_scale);
    EXPECT_NEAR(r->t, 19.3025379435841, 1e-9);
    EXPECT_NEAR(r->df, 2.29962855169574, 1e-10);
    EXPECT_NEAR(r->p_value, 0.00135580883849574, 1e-12);
    EXPECT_NEAR(r->difference_ci.low, 190.489770315522, 1e-7);
    EXPECT_NEAR(r->difference_ci.high, 284.110229684478, 1e-7);
    EXPECT_NEAR(r->ratio, 1.17516362383741, 1e-12);
    EXPECT_NEAR(r->ratio_ci.low, 1.14150733651796, 1e-9);
    EXPECT_NEAR(r->ratio_ci.high, 1.2090025568263, 1e-9);

    // On the log scale (times are positive): the ratio of geometric means, and Welch's test and
    // interval of the difference of the logs; the difference interval stays the means'.
    const auto l = welch(pg16, pg17);
    ASSERT_TRUE(l.has_value());
    EXPECT_TRUE(l->log_scale);
    EXPECT_NEAR(l->t, 20.5947991317702, 1e-9);
    EXPECT_NEAR(l->df, 2.41014662495851, 1e-10);
    EXPECT_NEAR(l->p_value, 0.000909332159043452, 1e-12);
    EXPECT_NEAR(l->ratio, 1.17510510369208, 1e-12);
    EXPECT_NEAR(l->ratio_ci.low, 1.14178094947694, 1e-9);
    EXPECT_NEAR(l->ratio_ci.high, 1.20940186062464, 1e-9);
    EXPECT_NEAR(l->difference_ci.low, 190.489770315522, 1e-7);
}

// A tps, a time or a byte count is never negative, and neither is its interval: widely spread
// positive runs whose mean's t-interval would reach -99 get a geometric one. Two runs get none.
// Runs measured in rounds: the paired test reads each round's ratio, so that what drifts
// between rounds (here the runs double from one round to the next) cancels (issue 62, stage 5).
TEST(ReportStatisticsTest, PairedTestReadsTheRoundsRatios) {
    const std::vector<double> b = {110, 221, 164, 133};
    const std::vector<double> a = {100, 200, 150, 120};
    const auto r = paired_test(b, a);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->paired);
    EXPECT_TRUE(r->log_scale);
    EXPECT_DOUBLE_EQ(r->df, 3.0);
    EXPECT_NEAR(r->ratio, 1.1016521510369182, 1e-12);
    EXPECT_NEAR(r->ratio_ci.low, 1.0913069718411184, 1e-9);
    EXPECT_NEAR(r->ratio_ci.high, 1.1120953986363429, 1e-9);
    EXPECT_NEAR(r->t, 32.654657307176294, 1e-9);
    EXPECT_LT(r->p_value, 0.001);
    EXPECT_DOUBLE_EQ(r->difference, 14.5);
    EXPECT_NEAR(r->difference_ci.low, 7.09325931110083, 1e-9);
    EXPECT_NEAR(r->difference_ci.high, 21.90674068889917, 1e-9);
    // Unpaired, the drift between rounds hides the same 10%.
    const auto w = welch(b, a);
    ASSERT_TRUE(w.has_value());
    EXPECT_GT(w->p_value, 0.05);
    // Too few rounds, or sides of different lengths: no test.
    EXPECT_FALSE(paired_test(std::vector<double>{1, 2}, std::vector<double>{1, 2}).has_value());
    EXPECT_FALSE(paired_test(b, std::vector<double>{1, 2, 3}).has_value());
}

TEST(ReportStatisticsTest, IntervalsRespectTheQuantity) {
    const std::vector<double> spread = {1.0, 10.0, 100.0};
    const Sample s = sample_of(spread);
    ASSERT_TRUE(s.log.has_value());
    EXPECT_NEAR(typical_value(s), 10.0, 1e-12);
    const auto linear = mean_interval(s.linear, 0.95);
    ASSERT_TRUE(linear.has_value());
    EXPECT_LT(linear->low, 0.0);
    const auto ci = typical_interval(s, 0.95);
    ASSERT_TRUE(ci.has_value());
    EXPECT_GT(ci->low, 0.0);
    EXPECT_NEAR(ci->low * ci->high, 100.0, 1e-9); // symmetric around 10 in ratio terms

    const std::vector<double> two = {1200.0, 1250.0};
    EXPECT_FALSE(typical_interval(sample_of(two), 0.95).has_value());
    EXPECT_FALSE(summarize(two).ci95.has_value());
    EXPECT_FALSE(typical_ratio_interval(sample_of(two), s, 0.95).has_value());

    const auto ratio = typical_ratio_interval(s, sample_of(std::vector<double>{5, 50, 500}), 0.95);
    ASSERT_TRUE(ratio.has_value());
    EXPECT_GT(ratio->low, 0.0);
    EXPECT_NEAR(typical_ratio(s, sample_of(std::vector<double>{5, 50, 500})), 0.2, 1e-12);

    // A count with a 0 among its runs stays on its own scale.
    const std::vector<double> with_zero = {0.0, 2.0, 4.0};
    EXPECT_FALSE(sample_of(with_zero).log.has_value());
    EXPECT_DOUBLE_EQ(typical_value(sample_of(with_zero)), 2.0);
    // A ratio with such a side is one of means on both sides (the figure Fieller's surrounds).
    const Sample positive = sample_of(std::vector<double>{1.0, 2.0, 4.0});
    EXPECT_NEAR(typical_ratio(positive, sample_of(with_zero)), (7.0 / 3.0) / 2.0, 1e-12);
    EXPECT_NEAR(typical_ratio(positive, sample_of(std::vector<double>{2.0, 2.0, 2.0})), 1.0,
                1e-12); // both positive: geometric means, 2 / 2
}

// A count is never negative, and neither is its interval: counts of 0, 0 and 2 have a mean whose
// t-interval reaches below 0 (as does the Fieller interval of a ratio of such counts); the part
// below 0 is cut, the rest kept. A quantity that can be negative keeps its whole interval.
TEST(ReportStatisticsTest, IntervalsOfCountsStopAtZero) {
    const Sample counts = sample_of(std::vector<double>{0.0, 0.0, 2.0});
    EXPECT_TRUE(counts.non_negative);
    const auto t_interval = mean_interval(counts.linear, 0.95);
    ASSERT_TRUE(t_interval.has_value());
    ASSERT_LT(t_interval->low, 0.0);
    const auto ci = typical_interval(counts, 0.95);
    ASSERT_TRUE(ci.has_value());
    EXPECT_EQ(ci->low, 0.0);
    EXPECT_DOUBLE_EQ(ci->high, t_interval->high);

    const Sample other = sample_of(std::vector<double>{1.0, 2.0, 2.0});
    const auto fieller = ratio_interval(counts.linear, other.linear, 0.95);
    ASSERT_TRUE(fieller.has_value() && fieller->bounded);
    ASSERT_LT(fieller->low, 0.0);
    const auto ratio = typical_ratio_interval(counts, other, 0.95);
    ASSERT_TRUE(ratio.has_value() && ratio->bounded);
    EXPECT_EQ(ratio->low, 0.0);
    EXPECT_DOUBLE_EQ(ratio->high, fieller->high);

    const Sample signed_values = sample_of(std::vector<double>{-1.0, 0.0, 2.0});
    EXPECT_FALSE(signed_values.non_negative);
    EXPECT_LT(typical_interval(signed_values, 0.95)->low, 0.0);
    EXPECT_LT(typical_ratio_interval(signed_values, other, 0.95)->low, 0.0);
}

TEST(ReportStatisticsTest, WelchDegenerateCases) {
    const std::vector<double> one = {1.0};
    const std::vector<double> two = {1.0, 2.0};
    const std::vector<double> three = {1.0, 2.0, 3.0};
    EXPECT_FALSE(welch(one, three).has_value());
    EXPECT_FALSE(welch(two, three).has_value()); // under 3 runs a side: no interval, no test
    const std::vector<double> same = {5, 5, 5};
    const auto equal = welch(same, same);
    ASSERT_TRUE(equal.has_value());
    EXPECT_DOUBLE_EQ(equal->t, 0.0);
    EXPECT_DOUBLE_EQ(equal->p_value, 1.0);
    EXPECT_DOUBLE_EQ(equal->ratio_ci.low, 1.0);
    const std::vector<double> other = {4, 4, 4};
    const auto different = welch(same, other);
    ASSERT_TRUE(different.has_value());
    EXPECT_TRUE(std::isinf(different->t));
    EXPECT_DOUBLE_EQ(different->p_value, 0.0);
    // A denominator indistinguishable from zero gives an unbounded ratio interval.
    const std::vector<double> around_zero = {-1, 1, -2, 2};
    const auto unbounded = welch(three, around_zero);
    ASSERT_TRUE(unbounded.has_value());
    EXPECT_FALSE(unbounded->ratio_ci.bounded);
}

} // namespace
} // namespace pglab::lab::judge
