// The words of each case of the verdict rules, with the figures that decided it.
#include "lab/report/verdict_words.hpp"

#include <gtest/gtest.h>

#include "evidence_fixtures.hpp"

namespace pglab::lab::report {
namespace {

using judge::Interval;

using judge::testing::band;
using judge::testing::sampled;

std::string words(const Allowed& a, const Evidence& e) {
    return decision_words(decide(a, e));
}

TEST(VerdictWordsTest, ABandIsItsFigureAndTolerance) {
    EXPECT_EQ(band_text(Band{2.0, 0.1}), "2.000 ± 10%");
    EXPECT_EQ(band_text(Band{0.0, 0.5}), "0 ± 0.5");
}

TEST(VerdictWordsTest, TheBandsCasesNameTheIntervalThatDecided) {
    const Allowed a = band(2.0, 0.1);
    EXPECT_EQ(words(a, sampled(2.0, {1.9, 2.1}, {1.85, 2.15})),
              "its 90% interval (1.900 – 2.100) lies within 2.000 ± 10%");
    EXPECT_EQ(words(a, sampled(2.0, {1.7, 2.3}, {1.6, 2.4})),
              "its 90% interval (1.700 – 2.300) is not within 2.000 ± 10%, and its 95% interval "
              "(1.600 – 2.400) reaches it");
    EXPECT_EQ(words(a, sampled(3.0, {2.8, 3.2}, {2.7, 3.3})),
              "its 95% interval (2.700 – 3.300) lies wholly outside 2.000 ± 10%");
}

TEST(VerdictWordsTest, BoundsNameTheOneSidedBound) {
    experiment::Claim c;
    c.at_least = 1.0;
    EXPECT_EQ(words(allowed_by(c), sampled(1.3, {1.1, 1.5}, {1.05, 1.55})),
              "its one-sided 95% bound 1.100 is ≥ 1.000");
    EXPECT_EQ(words(allowed_by(c), sampled(0.8, {0.7, 0.9}, {0.65, 0.95})),
              "its 95% interval (0.650 – 0.950) lies wholly below 1.000");
    c.at_least.reset();
    c.at_most = 0.6;
    EXPECT_EQ(words(allowed_by(c), sampled(0.9, {0.8, 1.0}, {0.7, 1.1})),
              "its 95% interval (0.700 – 1.100) lies wholly above 0.6");
    // Only the parts that gave the verdict are said.
    c.at_least = 0.5;
    EXPECT_EQ(words(allowed_by(c), sampled(0.45, {0.42, 0.48}, {0.41, 0.49})),
              "its 95% interval (0.410 – 0.490) lies wholly below 0.5");
}

TEST(VerdictWordsTest, ALookOfARepeatUntilDecidedNamesItsLevels) {
    Evidence e = sampled(2.0, {1.7, 2.3}, {1.6, 2.4});
    e.levels.agree = 0.0175;
    e.levels.differ = 5.4e-7;
    e.agree_ci = judge::Interval{1.92, 2.08, true};
    e.differ_ci = judge::Interval{0.5, 9.0, true};
    EXPECT_EQ(words(band(2.0, 0.1), e),
              "its 96.5% interval (1.920 – 2.080) lies within 2.000 ± 10%");
    experiment::Claim c;
    c.at_most = 1.0;
    EXPECT_EQ(words(allowed_by(c), e),
              "its one-sided 98.2% bound 2.080 is not ≤ 1.000, and its 99.99989% interval (0.500 "
              "– 9.000) reaches 1.000");
}

TEST(VerdictWordsTest, AnExactFigureIsSaidAsDeclared) {
    Evidence e;
    e.value = 2.1;
    e.exact = true;
    EXPECT_EQ(words(band(2.0, 0.1), e), "2.100 (declared exact) is within 2.000 ± 10%");
}

TEST(VerdictWordsTest, WhatADecisionLackedIsSaid) {
    Evidence one;
    one.value = 2.0;
    one.runs = 1;
    EXPECT_EQ(words(band(2.0, 0.1), one), "2.000 from one run, which has no interval");
    one.runs = 2;
    EXPECT_EQ(words(band(2.0, 0.1), one),
              "2.000 from 2 runs, too few for an interval (3 at the least)");
    const Interval unbounded{0, 0, false};
    EXPECT_EQ(words(band(2.0, 0.1), sampled(5.0, unbounded, unbounded)),
              "its interval is unbounded (the denominator's runs could be 0)");
}

} // namespace
} // namespace pglab::lab::report
