// The verdict rules on fixed intervals: a band or bounds against the 90% and 95% intervals, an
// exact figure, one run, an unbounded interval, and how many more runs would decide.
#include "lab/report/verdict_rules.hpp"

#include <gtest/gtest.h>

namespace pglab::lab::report {
namespace {

Evidence sampled(double value, Interval ci90, Interval ci95) {
    Evidence e;
    e.value = value;
    e.ci90 = ci90;
    e.ci95 = ci95;
    return e;
}

Allowed band(double paper, double tolerance) {
    experiment::Claim c;
    c.paper = paper;
    c.tolerance = tolerance;
    return allowed_by(c);
}

TEST(VerdictRulesTest, ABandIsTheFigureAndItsTolerance) {
    const Allowed relative = band(2.0, 0.1);
    ASSERT_TRUE(relative.band.has_value());
    EXPECT_DOUBLE_EQ(relative.band->low, 1.8);
    EXPECT_DOUBLE_EQ(relative.band->high, 2.2);
    EXPECT_EQ(relative.band_text, "2.000 ± 10%");
    const Allowed around_zero = band(0.0, 0.5);
    EXPECT_DOUBLE_EQ(around_zero.band->low, -0.5);
    EXPECT_DOUBLE_EQ(around_zero.band->high, 0.5);
    EXPECT_EQ(around_zero.band_text, "0 ± 0.5");
}

TEST(VerdictRulesTest, AgreesOnlyWhenThe90PercentIntervalIsInside) {
    const Allowed a = band(2.0, 0.1); // 1.8 - 2.2
    const Decision inside = decide(a, sampled(2.0, {1.9, 2.1}, {1.85, 2.15}));
    EXPECT_EQ(inside.verdict, Verdict::agrees);
    EXPECT_EQ(inside.why, "its 90% interval (1.900 – 2.100) lies within 2.000 ± 10%");
    // The point estimate inside but the interval reaching out: not proven.
    const Decision straddling = decide(a, sampled(2.0, {1.7, 2.3}, {1.6, 2.4}));
    EXPECT_EQ(straddling.verdict, Verdict::inconclusive);
    EXPECT_EQ(straddling.why, "its 90% interval (1.700 – 2.300) is not within 2.000 ± 10%, and its "
                              "95% interval (1.600 – 2.400) reaches it");
}

TEST(VerdictRulesTest, DiffersOnlyWhenThe95PercentIntervalIsWhollyOutside) {
    const Allowed a = band(2.0, 0.1);
    const Decision outside = decide(a, sampled(3.0, {2.8, 3.2}, {2.7, 3.3}));
    EXPECT_EQ(outside.verdict, Verdict::differs);
    EXPECT_EQ(outside.why, "its 95% interval (2.700 – 3.300) lies wholly outside 2.000 ± 10%");
    // The point estimate outside, the 95% interval reaching the band: not proven either.
    const Decision reaching = decide(a, sampled(2.4, {2.25, 2.55}, {2.15, 2.65}));
    EXPECT_EQ(reaching.verdict, Verdict::inconclusive);
}

TEST(VerdictRulesTest, BoundsUseTheOneSidedBound) {
    experiment::Claim c;
    c.at_least = 1.0;
    const Allowed at_least = allowed_by(c);
    EXPECT_EQ(decide(at_least, sampled(1.3, {1.1, 1.5}, {1.05, 1.55})).why,
              "its one-sided 95% bound 1.100 is ≥ 1.000");
    const Decision below = decide(at_least, sampled(0.8, {0.7, 0.9}, {0.65, 0.95}));
    EXPECT_EQ(below.verdict, Verdict::differs);
    EXPECT_EQ(below.why, "its 95% interval (0.650 – 0.950) lies wholly below 1.000");
    EXPECT_EQ(decide(at_least, sampled(1.05, {0.95, 1.15}, {0.9, 1.2})).verdict,
              Verdict::inconclusive);

    c.at_least.reset();
    c.at_most = 0.6;
    const Allowed at_most = allowed_by(c);
    EXPECT_EQ(decide(at_most, sampled(0.3, {0.25, 0.35}, {0.2, 0.4})).verdict, Verdict::agrees);
    const Decision above = decide(at_most, sampled(0.9, {0.8, 1.0}, {0.7, 1.1}));
    EXPECT_EQ(above.verdict, Verdict::differs);
    EXPECT_EQ(above.why, "its 95% interval (0.700 – 1.100) lies wholly above 0.6");

    // Both bounds: one part outside decides "differs", whatever the other.
    c.at_least = 0.5;
    const Allowed range = allowed_by(c);
    EXPECT_EQ(decide(range, sampled(0.55, {0.52, 0.58}, {0.51, 0.59})).verdict, Verdict::agrees);
    EXPECT_EQ(decide(range, sampled(0.45, {0.42, 0.48}, {0.41, 0.49})).verdict, Verdict::differs);
    EXPECT_EQ(decide(range, sampled(0.5, {0.45, 0.55}, {0.4, 0.6})).verdict, Verdict::inconclusive);
}

TEST(VerdictRulesTest, AnExactFigureIsDecidedByItsValue) {
    Evidence e;
    e.value = 2.1;
    e.exact = true;
    e.exact_reason = "the same in each of 3 runs";
    const Decision in = decide(band(2.0, 0.1), e);
    EXPECT_EQ(in.verdict, Verdict::agrees);
    EXPECT_EQ(in.why, "2.100 (the same in each of 3 runs) is within 2.000 ± 10%");
    e.value = 2.5;
    EXPECT_EQ(decide(band(2.0, 0.1), e).verdict, Verdict::differs);
}

TEST(VerdictRulesTest, OneRunOrAnUnboundedIntervalDecidesNothing) {
    Evidence one;
    one.value = 2.0;
    const Decision d = decide(band(2.0, 0.1), one);
    EXPECT_EQ(d.verdict, Verdict::inconclusive);
    EXPECT_EQ(d.why, "2.000 from one run, which has no interval");

    const Interval unbounded{0, 0, false};
    const Decision u = decide(band(2.0, 0.1), sampled(5.0, unbounded, unbounded));
    EXPECT_EQ(u.verdict, Verdict::inconclusive);
    EXPECT_EQ(u.why, "its interval is unbounded (the denominator's runs could be 0)");
}

TEST(VerdictRulesTest, MoreRunsNarrowTheIntervalUntilDecided) {
    // Mean 2.0, sd 0.4 over 3 runs: the 90% interval is far wider than 1.8 - 2.2 at first.
    const Sample measured{Moments{3, 2.0, 0.16}, std::nullopt, std::nullopt};
    const auto after = [&](size_t extra) { return value_evidence(measured, extra); };
    const Allowed a = band(2.0, 0.1);
    EXPECT_EQ(decide(a, after(0)).verdict, Verdict::inconclusive);
    const auto extra = extra_runs_to_decide(a, after);
    ASSERT_TRUE(extra.has_value());
    // t(0.95, n-1) * 0.4 / sqrt(n) <= 0.2 first holds at n = 13.
    EXPECT_EQ(*extra, 10U);
    EXPECT_EQ(decide(a, after(*extra)).verdict, Verdict::agrees);
    EXPECT_EQ(decide(a, after(*extra - 1)).verdict, Verdict::inconclusive);

    // A figure on the band's edge is never decided.
    const Sample on_edge{Moments{3, 2.2, 0.16}, std::nullopt, std::nullopt};
    const auto edge = [&](size_t more) { return value_evidence(on_edge, more); };
    EXPECT_FALSE(extra_runs_to_decide(a, edge).has_value());
}

} // namespace
} // namespace pglab::lab::report
