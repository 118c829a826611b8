// The verdict rules on fixed intervals, as values: a band or bounds against the 90% and 95%
// intervals, an exact figure, one run, an unbounded interval, and how many more runs would
// decide. Their words are report_verdict_words_test.cpp's.
#include "lab/judge/verdict_rules.hpp"

#include <gtest/gtest.h>

#include "evidence_fixtures.hpp"

namespace pglab::lab::judge {
namespace {

using testing::band;
using testing::sampled;

TEST(VerdictRulesTest, ABandIsTheFigureAndItsTolerance) {
    const Allowed relative = band(2.0, 0.1);
    ASSERT_TRUE(relative.band.has_value());
    EXPECT_DOUBLE_EQ(relative.band->bounds().low, 1.8);
    EXPECT_DOUBLE_EQ(relative.band->bounds().high, 2.2);
    const Allowed around_zero = band(0.0, 0.5);
    EXPECT_DOUBLE_EQ(around_zero.band->bounds().low, -0.5);
    EXPECT_DOUBLE_EQ(around_zero.band->bounds().high, 0.5);
}

TEST(VerdictRulesTest, AgreesOnlyWhenThe90PercentIntervalIsInside) {
    const Allowed a = band(2.0, 0.1); // 1.8 - 2.2
    const Decision inside = decide(a, sampled(2.0, {1.9, 2.1}, {1.85, 2.15}));
    EXPECT_EQ(inside.verdict, Verdict::agrees);
    ASSERT_EQ(inside.parts.size(), 1U);
    EXPECT_EQ(inside.parts[0].rule, Rule::band);
    EXPECT_EQ(inside.parts[0].applied, Case::inside);
    // The point estimate inside but the interval reaching out: not proven.
    const Decision straddling = decide(a, sampled(2.0, {1.7, 2.3}, {1.6, 2.4}));
    EXPECT_EQ(straddling.verdict, Verdict::inconclusive);
    EXPECT_EQ(straddling.parts[0].applied, Case::open);
}

TEST(VerdictRulesTest, DiffersOnlyWhenThe95PercentIntervalIsWhollyOutside) {
    const Allowed a = band(2.0, 0.1);
    const Decision outside = decide(a, sampled(3.0, {2.8, 3.2}, {2.7, 3.3}));
    EXPECT_EQ(outside.verdict, Verdict::differs);
    EXPECT_EQ(outside.parts[0].applied, Case::outside);
    // The point estimate outside, the 95% interval reaching the band: not proven either.
    const Decision reaching = decide(a, sampled(2.4, {2.25, 2.55}, {2.15, 2.65}));
    EXPECT_EQ(reaching.verdict, Verdict::inconclusive);
}

TEST(VerdictRulesTest, BoundsUseTheOneSidedBound) {
    experiment::Claim c;
    c.at_least = 1.0;
    const Allowed at_least = allowed_by(c);
    EXPECT_EQ(decide(at_least, sampled(1.3, {1.1, 1.5}, {1.05, 1.55})).verdict, Verdict::agrees);
    const Decision below = decide(at_least, sampled(0.8, {0.7, 0.9}, {0.65, 0.95}));
    EXPECT_EQ(below.verdict, Verdict::differs);
    EXPECT_EQ(below.parts[0].rule, Rule::at_least);
    EXPECT_EQ(decide(at_least, sampled(1.05, {0.95, 1.15}, {0.9, 1.2})).verdict,
              Verdict::inconclusive);

    c.at_least.reset();
    c.at_most = 0.6;
    const Allowed at_most = allowed_by(c);
    EXPECT_EQ(decide(at_most, sampled(0.3, {0.25, 0.35}, {0.2, 0.4})).verdict, Verdict::agrees);
    EXPECT_EQ(decide(at_most, sampled(0.9, {0.8, 1.0}, {0.7, 1.1})).verdict, Verdict::differs);

    // Both bounds: one part outside decides "differs", whatever the other.
    c.at_least = 0.5;
    const Allowed range = allowed_by(c);
    EXPECT_EQ(decide(range, sampled(0.55, {0.52, 0.58}, {0.51, 0.59})).verdict, Verdict::agrees);
    const Decision low = decide(range, sampled(0.45, {0.42, 0.48}, {0.41, 0.49}));
    EXPECT_EQ(low.verdict, Verdict::differs);
    ASSERT_EQ(low.parts.size(), 2U);
    EXPECT_EQ(low.parts[0].verdict, Verdict::differs); // at_least
    EXPECT_EQ(low.parts[1].verdict, Verdict::agrees);  // at_most
    EXPECT_EQ(decide(range, sampled(0.5, {0.45, 0.55}, {0.4, 0.6})).verdict, Verdict::inconclusive);
}

TEST(VerdictRulesTest, AnExactFigureIsDecidedByItsValue) {
    Evidence e;
    e.value = 2.1;
    e.exact = true;
    EXPECT_EQ(decide(band(2.0, 0.1), e).verdict, Verdict::agrees);
    e.value = 2.5;
    EXPECT_EQ(decide(band(2.0, 0.1), e).verdict, Verdict::differs);
}

TEST(VerdictRulesTest, OneRunOrAnUnboundedIntervalDecidesNothing) {
    Evidence one;
    one.value = 2.0;
    one.runs = 1;
    const Decision d = decide(band(2.0, 0.1), one);
    EXPECT_EQ(d.verdict, Verdict::inconclusive);
    EXPECT_EQ(d.lacking, Lacking::one_run);
    one.runs = 2;
    EXPECT_EQ(decide(band(2.0, 0.1), one).lacking, Lacking::too_few_runs);

    const Interval unbounded{0, 0, false};
    const Decision u = decide(band(2.0, 0.1), sampled(5.0, unbounded, unbounded));
    EXPECT_EQ(u.verdict, Verdict::inconclusive);
    EXPECT_EQ(u.parts[0].applied, Case::unbounded);

    EXPECT_EQ(decide(Allowed{}, sampled(1.0, {0.9, 1.1}, {0.8, 1.2})).lacking, Lacking::no_rule);
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
} // namespace pglab::lab::judge
