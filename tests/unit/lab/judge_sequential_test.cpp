// The group-sequential design of lab/judge/sequential.hpp: each look's level, checked against a
// simulated Brownian motion, and the verdicts of synthetic A/A experiments judged after every
// round as `repeat = { until = "decided" }` judges them: at the band's edge, where "agrees" is
// false, the design keeps it at 5% or less, where reading every look at a single look's levels
// does not; and what it costs in runs against one look at `max`.
#include "lab/judge/sequential.hpp"
#include "lab/judge/verdict_rules.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace pglab::lab::judge {
namespace {

TEST(SequentialLooks, ASingleLookSpendsTheWholeLevel) {
    const LookPlan single;
    EXPECT_FALSE(single.sequential());
    EXPECT_EQ(single.count(), 1U);
    EXPECT_EQ(levels_at(single, 7), Levels{});
}

TEST(SequentialLooks, ThePlanLooksAfterEachRoundFromTheFirstInterval) {
    const LookPlan plan = LookPlan::rounds(2, 15); // no interval under 3 runs: no look there
    EXPECT_EQ(plan.first, 3U);
    EXPECT_EQ(plan.last, 15U);
    EXPECT_EQ(plan.count(), 13U);
    EXPECT_EQ(plan.look_of(2), 1U);
    EXPECT_EQ(plan.look_of(9), 7U);
    EXPECT_EQ(plan.look_of(40), 13U);
    EXPECT_FALSE(LookPlan::rounds(5, 5).sequential()); // min = max: one look
    // Each look spends less than a single look would: the first almost nothing, the last
    // nearly all of it.
    const Levels first = levels_at(plan, 3);
    const Levels last = levels_at(plan, 15);
    EXPECT_EQ(first.look, 1U);
    EXPECT_EQ(last.look, 13U);
    EXPECT_EQ(last.looks, 13U);
    EXPECT_LT(first.agree, 1e-4);
    EXPECT_LT(last.agree, 0.05);
    EXPECT_GT(last.agree, 0.03);
    EXPECT_LT(last.differ, 0.025);
    EXPECT_GT(last.differ, 0.015);
    // Computed once per plan, the same every time.
    EXPECT_EQ(levels_at(plan, 9), levels_at(LookPlan::rounds(3, 15), 9));
}

TEST(SequentialLooks, TheFunctionSpendsLittleEarlyAndAllByTheLastLook) {
    EXPECT_DOUBLE_EQ(spent_by(0.05, 0.0), 0.0);
    EXPECT_NEAR(spent_by(0.05, 1.0), 0.05, 1e-12);
    EXPECT_LT(spent_by(0.05, 0.2), 1e-4);
    EXPECT_LT(spent_by(0.05, 0.5), spent_by(0.05, 0.8));
}

/// A synthetic A/A experiment of this VM's kind: two cells, one run of each per round; every
/// run moves with the round (a drift that walks: the machine warms, a neighbour comes and goes)
/// and has noise of its own; cell A's true figure is `ratio` times cell B's. Judged as a paired
/// ratio against 1 ± 5% after each round from `min` to `max` runs, stopping at the first look
/// that decides.
struct Trial {
    Verdict verdict = Verdict::inconclusive;
    std::size_t runs = 0;
};

struct Vm {
    double drift_sd = 0.05; ///< the walk's step, on the log scale, per round
    double noise_sd = 0.08; ///< each run's own (about an 8% coefficient of variation)
};

Trial run_trial(std::mt19937_64& random, double ratio, std::size_t min, std::size_t max,
                bool sequential, const Vm& vm) {
    std::normal_distribution<double> normal;
    const LookPlan plan = sequential ? LookPlan::rounds(min, max) : LookPlan{};
    Allowed allowed;
    allowed.band = Band{1.0, 0.05};
    std::vector<double> log_differences;
    double drift = 0;
    for (std::size_t round = 1; round <= max; ++round) {
        drift += vm.drift_sd * normal(random);
        const double a = std::log(ratio) + drift + vm.noise_sd * normal(random);
        const double b = drift + vm.noise_sd * normal(random);
        log_differences.push_back(a - b);
        if (round < min) {
            continue;
        }
        const Decision d =
            decide(allowed, paired_ratio_evidence(moments_of(log_differences), 0, plan));
        if (d.verdict != Verdict::inconclusive) {
            return {d.verdict, round};
        }
    }
    return {Verdict::inconclusive, max};
}

/// How a way of judging fared over many experiments.
struct Tally {
    double agrees = 0;
    double differs = 0;
    double mean_runs = 0;
};

enum class Judging { every_look, every_look_unadjusted, once_at_max };

Tally tally(double ratio, std::size_t min, std::size_t max, Judging judging, int trials,
            const Vm& vm = {}) {
    std::mt19937_64 random(7 + static_cast<std::uint64_t>(ratio * 1000) + min * 31 + max);
    Tally t;
    for (int i = 0; i < trials; ++i) {
        const Trial r = run_trial(random, ratio, judging == Judging::once_at_max ? max : min, max,
                                  judging == Judging::every_look, vm);
        t.agrees += r.verdict == Verdict::agrees ? 1 : 0;
        t.differs += r.verdict == Verdict::differs ? 1 : 0;
        t.mean_runs += static_cast<double>(r.runs);
    }
    t.agrees /= trials;
    t.differs /= trials;
    t.mean_runs /= trials;
    return t;
}

/// Two standard errors of a rate `p` estimated from `trials`: what a simulation's rate may exceed
/// the true one by.
double two_errors(double p, int trials) {
    return 2 * std::sqrt(p * (1 - p) / trials);
}

TEST(SequentialLooks, AtTheBandsEdgeNeitherVerdictIsWrongMoreOftenThanPromised) {
    constexpr int k_trials = 4000;
    for (const auto& [min, max] : {std::pair<std::size_t, std::size_t>{3, 15}, {5, 20}}) {
        // The truth on the band's edge: "agrees" is wrong there (at most 5%), and "differs" (at
        // most 2.5%: its side of the edge is as likely as the other).
        const Tally looked = tally(1.05, min, max, Judging::every_look, k_trials);
        const Tally naive = tally(1.05, min, max, Judging::every_look_unadjusted, k_trials);
        std::printf("ratio 1.05 on the edge of 1 ± 5%%, a look at each of %zu..%zu runs: false "
                    "agrees %.1f%%, false differs %.1f%%; each look read as a single look: "
                    "%.1f%% and %.1f%%\n",
                    min, max, 100 * looked.agrees, 100 * looked.differs, 100 * naive.agrees,
                    100 * naive.differs);
        EXPECT_LE(looked.agrees, 0.05 + two_errors(0.05, k_trials));
        EXPECT_LE(looked.differs, 0.025 + two_errors(0.025, k_trials));
        // What the design corrects: looking after every round at a single look's levels.
        EXPECT_GT(naive.agrees, 0.05 + two_errors(0.05, k_trials));
        EXPECT_GT(naive.differs, 0.025 + two_errors(0.025, k_trials));
    }
}

TEST(SequentialLooks, WhatLookingAfterEveryRoundCostsAgainstOneLookAtMax) {
    constexpr int k_trials = 1000;

    struct Case {
        double ratio;
        double noise_sd;
    };

    // Inside the band, plainly or barely for the noise; and plainly outside it.
    for (const Case c : {Case{1.0, 0.03}, Case{1.0, 0.08}, Case{1.2, 0.08}}) {
        const Vm vm{0.05, c.noise_sd};
        const Tally looked = tally(c.ratio, 5, 20, Judging::every_look, k_trials, vm);
        const Tally once = tally(c.ratio, 5, 20, Judging::once_at_max, k_trials, vm);
        const bool inside = c.ratio < 1.05;
        const double decided = inside ? looked.agrees : looked.differs;
        const double decided_once = inside ? once.agrees : once.differs;
        std::printf("ratio %.2f, noise %.0f%%, looks at 5..20 runs: %s %.1f%% after %.1f runs of "
                    "each cell on average; one look at 20 runs: %.1f%%\n",
                    c.ratio, 100 * c.noise_sd, inside ? "agrees" : "differs", 100 * decided,
                    looked.mean_runs, 100 * decided_once);
        // It never decides the wrong way here, and finds at least half of what one look at max
        // finds; where the answer is plain, with fewer runs.
        EXPECT_EQ(inside ? looked.differs : looked.agrees, 0.0);
        EXPECT_GE(decided, 0.5 * decided_once);
        if (decided_once > 0.99) {
            EXPECT_LT(looked.mean_runs, 15.0);
        }
    }
}

} // namespace
} // namespace pglab::lab::judge
