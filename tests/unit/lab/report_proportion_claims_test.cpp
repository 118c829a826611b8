// Proportions judged with intervals that stay inside 0–100% (issue 48): a hit ratio's runs are
// read on the log-odds scale, a ratio of two hit ratios by the quotient of their intervals; fixed
// samples inside, outside and straddling a bound, one and two runs, and a 100% ceiling.
#include "lab/report/claims.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/statistics.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "finished_runs.hpp"
#include "judge_claim.hpp"

namespace pglab::lab::report {
namespace {

constexpr double k_blocks = 1000; // blocks each run of the fixtures touches

/// A results directory of one explain step "range" in two cells, scan=on (0) and scan=off (1),
/// whose runs hit `on[i]` and `off[i]` of k_blocks blocks.
ResultsDir scans(const std::vector<double>& on, const std::vector<double>& off) {
    ResultsDir r;
    r.variables = {"scan"};
    std::int64_t run = 0;
    const std::vector<std::pair<std::string, std::vector<double>>> cells = {{"on", on},
                                                                            {"off", off}};
    for (std::size_t i = 0; i < cells.size(); ++i) {
        Cell c;
        c.index = i;
        c.bindings = {{"scan", {cells[i].first, {}}}};
        c.label = "scan=" + cells[i].first;
        r.cells.push_back(c);
        for (const double hits : cells[i].second) {
            const nlohmann::json steps = nlohmann::json::array(
                {{{"index", 0},
                  {"key", "range"},
                  {"type", "explain"},
                  {"status", "ok"},
                  {"explain",
                   {{"execution_ms", 10.0},
                    {"planning_ms", 0.1},
                    {"shared_hit_blocks", static_cast<std::int64_t>(hits)},
                    {"shared_read_blocks", static_cast<std::int64_t>(k_blocks - hits)},
                    {"heap_fetches", 0}}}}});
            r.runs.push_back(testing::finished_run(run++, static_cast<std::int64_t>(i), steps));
        }
    }
    return r;
}

experiment::Claim higher_hit_ratio(double at_least) {
    experiment::Claim c;
    c.text = "the index-only scan has a higher buffer hit ratio";
    c.step = "range";
    c.metric = "buffer_hit_pct";
    c.kind = experiment::ClaimKind::ratio;
    c.cell = *experiment::parse_cell_selector("scan=on");
    c.baseline = *experiment::parse_cell_selector("scan=off");
    c.at_least = at_least;
    return c;
}

experiment::Claim hit_ratio_value(double paper, double tolerance) {
    experiment::Claim c;
    c.text = "the plain scan hits most blocks";
    c.step = "range";
    c.metric = "buffer_hit_pct";
    c.cell = *experiment::parse_cell_selector("scan=off");
    c.paper = paper;
    c.tolerance = tolerance;
    return c;
}

TEST(ProportionStatistics, AnIntervalNeverLeavesZeroToAHundred) {
    // One cold run among warm ones: a plain t-interval of these percentages reaches far above
    // 100% (the 314%); on the log-odds scale it cannot.
    const std::vector<double> percents = {30, 100, 100, 100};
    const std::vector<double> trials(percents.size(), k_blocks);
    const Sample s = proportion_sample_of(percents, trials);
    ASSERT_TRUE(s.logit.has_value());
    const auto plain = typical_interval(sample_of(percents), 0.95);
    ASSERT_TRUE(plain.has_value());
    EXPECT_GT(plain->high, 100.0);
    const auto ci = typical_interval(s, 0.95);
    ASSERT_TRUE(ci.has_value());
    EXPECT_GE(ci->low, 0.0);
    EXPECT_LE(ci->high, 100.0);
    EXPECT_LT(ci->low, typical_value(s));
    EXPECT_GT(ci->high, typical_value(s));
    const Summary summary = summarize(percents, s);
    ASSERT_TRUE(summary.ci95.has_value());
    EXPECT_LE(summary.ci95->high, 100.0);
}

TEST(ProportionStatistics, AHundredPercentInEveryRunIsThatPoint) {
    const std::vector<double> percents = {100, 100, 100};
    const Sample s = proportion_sample_of(percents, std::vector<double>(3, k_blocks));
    EXPECT_DOUBLE_EQ(typical_value(s), 100.0);
    const auto ci = typical_interval(s, 0.95);
    ASSERT_TRUE(ci.has_value());
    EXPECT_DOUBLE_EQ(ci->low, 100.0);
    EXPECT_DOUBLE_EQ(ci->high, 100.0);
    // 0% and 100% have finite log-odds: the ½ of the empirical logit.
    const Sample mixed =
        proportion_sample_of(std::vector<double>{0, 100, 50}, std::vector<double>(3, k_blocks));
    ASSERT_TRUE(mixed.logit.has_value());
    EXPECT_TRUE(std::isfinite(mixed.logit->mean));
    EXPECT_TRUE(std::isfinite(mixed.logit->variance));
}

TEST(ProportionStatistics, ARatioOfProportionsStaysWithinWhatTheyCanBe) {
    const Sample a = proportion_sample_of(std::vector<double>{99, 98, 99.5, 99},
                                          std::vector<double>(4, k_blocks));
    const Sample b = proportion_sample_of(std::vector<double>{30, 100, 100, 100},
                                          std::vector<double>(4, k_blocks));
    const auto ci = typical_ratio_interval(a, b, 0.95);
    ASSERT_TRUE(ci.has_value());
    ASSERT_TRUE(ci->bounded);
    // a cannot be above 100%, b not below its own lower bound: the quotient's ends follow.
    const auto each_a = typical_interval(a, 0.975);
    const auto each_b = typical_interval(b, 0.975);
    EXPECT_DOUBLE_EQ(ci->low, each_a->low / each_b->high);
    EXPECT_DOUBLE_EQ(ci->high, each_a->high / each_b->low);
    EXPECT_LE(ci->low, typical_ratio(a, b));
    EXPECT_GE(ci->high, typical_ratio(a, b));
}

TEST(ProportionClaims, BothAtTheCeilingDiffersFromHigher) {
    // Every run of both scans found every block in shared_buffers: the ratio is 1 exactly, and
    // "higher by 1% at least" is wholly outside.
    const ClaimResult c =
        testing::judge_claim(higher_hit_ratio(1.01), scans({1000, 1000, 1000}, {1000, 1000, 1000}));
    EXPECT_EQ(c.judgement.verdict, Verdict::differs) << c.why;
    EXPECT_EQ(c.judgement.value, 1.0);
    EXPECT_EQ(c.measured, "1.000 (95% CI 1.000 – 1.000) = 100.0 / 100.0 %");
}

TEST(ProportionClaims, HigherAgreesWhenTheLowerBoundIsAbove) {
    const ClaimResult c = testing::judge_claim(higher_hit_ratio(1.01),
                                               scans({990, 995, 992, 993}, {700, 720, 710, 705}));
    EXPECT_EQ(c.judgement.verdict, Verdict::agrees) << c.why;
    EXPECT_NE(c.measured.find("means of the log-odds"), std::string::npos) << c.measured;
}

TEST(ProportionClaims, OneColdRunLeavesItOpenNotWrong) {
    // The plain scan's first run read from the OS: its interval is wide, and the on/off ratio's
    // interval reaches both sides of 1.01 (no interval of a proportion beyond 100%).
    const ClaimResult c =
        testing::judge_claim(higher_hit_ratio(1.01), scans({1000, 1000, 1000}, {300, 1000, 1000}));
    EXPECT_EQ(c.judgement.verdict, Verdict::inconclusive) << c.why;
    ASSERT_TRUE(c.judgement.ci95.has_value());
    EXPECT_TRUE(c.judgement.ci95->bounded);
}

TEST(ProportionClaims, ABaselineThatMissesEveryBlockIsMeasuredSoInconclusiveNotUntestable) {
    // 9.2's 32MB of shared_buffers: the plain scan reads every block from the OS in every run. A
    // ratio over its 0% has no finite value; the claim was still tested, and runs again would not
    // decide it (`until` is given no cells to run again).
    const ClaimResult c =
        testing::judge_claim(higher_hit_ratio(1.01), scans({870, 870, 870}, {0, 0, 0}));
    EXPECT_EQ(c.judgement.verdict, Verdict::inconclusive) << c.why;
    EXPECT_TRUE(c.judgement.cells.empty());
    ASSERT_TRUE(c.judgement.unjudged.has_value());
    EXPECT_EQ(c.judgement.unjudged->why, judge::Unjudged::Why::over_zero);
    EXPECT_EQ(c.judgement.unjudged->subject, "scan=off");
    EXPECT_EQ(c.judgement.unjudged->other, "scan=on");
    EXPECT_NEAR(c.judgement.unjudged->figure, 87.0, 1e-9); // 870 of 1000 blocks in every run
    // The report's words for it:
    EXPECT_NE(c.why.find("is 0 in \"scan=off\" (in every run)"), std::string::npos) << c.why;
}

TEST(ProportionClaims, AValueInsideOutsideAndStraddling) {
    const ResultsDir tight = scans({1000, 1000, 1000}, {900, 905, 895, 900});
    EXPECT_EQ(testing::judge_claim(hit_ratio_value(90, 0.05), tight).judgement.verdict,
              Verdict::agrees);
    EXPECT_EQ(testing::judge_claim(hit_ratio_value(50, 0.05), tight).judgement.verdict,
              Verdict::differs);
    const ClaimResult wide = testing::judge_claim(hit_ratio_value(90, 0.05),
                                                  scans({1000, 1000, 1000}, {700, 950, 990, 900}));
    EXPECT_EQ(wide.judgement.verdict, Verdict::inconclusive) << wide.why;
    ASSERT_TRUE(wide.judgement.ci95.has_value());
    EXPECT_GE(wide.judgement.ci95->low, 0.0);
    EXPECT_LE(wide.judgement.ci95->high, 100.0);
}

TEST(ProportionClaims, OneAndTwoRunsDecideNothing) {
    for (const std::vector<double>& off :
         {std::vector<double>{700}, std::vector<double>{700, 705}}) {
        const ClaimResult c = testing::judge_claim(higher_hit_ratio(1.01), scans({990, 991}, off));
        EXPECT_EQ(c.judgement.verdict, Verdict::inconclusive) << c.why;
        EXPECT_FALSE(c.judgement.ci95.has_value());
    }
}

} // namespace
} // namespace pglab::lab::report
