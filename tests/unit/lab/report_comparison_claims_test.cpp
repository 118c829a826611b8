// Claims that compare comparisons (issue 48): a ratio along a variable ("the gain grows with the
// share updated"), a ratio of ratios ("the gain depends on the index") and a ratio of spreads
// ("the plain scan varies more"), on fixed samples: inside, outside, straddling, too few runs.
#include "lab/report/claims.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/statistics.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "finished_runs.hpp"
#include "judge_claim.hpp"

namespace pglab::lab::report {
namespace {

/// One timed-sql step "q" over the cells patch × x (patch "yes"/"no", x the given values); the
/// client_ms runs of cell (patch, x[i]) are `runs(patch, i)`.
template <typename Runs>
ResultsDir patch_along(const std::vector<std::string>& x, Runs runs) {
    ResultsDir r;
    r.variables = {"patch", "x"};
    std::int64_t run = 0;
    std::size_t index = 0;
    for (const std::string patch : {"yes", "no"}) {
        for (std::size_t i = 0; i < x.size(); ++i) {
            Cell c;
            c.index = index;
            c.bindings = {{"patch", {patch, {}}}, {"x", {x[i], {}}}};
            c.label = "patch=" + patch + " x=" + x[i];
            r.cells.push_back(c);
            for (const double ms : runs(patch, i)) {
                const nlohmann::json steps = nlohmann::json::array({{{"index", 0},
                                                                     {"key", "q"},
                                                                     {"type", "timed-sql"},
                                                                     {"status", "ok"},
                                                                     {"client_ms", ms},
                                                                     {"server_ms", ms}}});
                r.runs.push_back(
                    testing::finished_run(run++, static_cast<std::int64_t>(index), steps));
            }
            ++index;
        }
    }
    return r;
}

/// Runs around `centre`: centre × (1 − s, 1, 1 + s, 1).
std::vector<double> around(double centre, double s = 0.01) {
    return {centre * (1 - s), centre, centre * (1 + s), centre};
}

experiment::Claim claim_on(experiment::ClaimKind kind, const std::string& a, const std::string& b) {
    experiment::Claim c;
    c.text = "claim";
    c.step = "q";
    c.metric = "client_ms";
    c.kind = kind;
    c.cell = *experiment::parse_cell_selector(a);
    c.baseline = *experiment::parse_cell_selector(b);
    return c;
}

TEST(ProductStatistics, ATwoFactorProductIsTheRatioOfTwoCells) {
    const Sample a = sample_of(std::vector<double>{10, 11, 9, 10.5});
    const Sample b = sample_of(std::vector<double>{20, 19, 22, 21});
    const std::array<Factor, 2> factors = {Factor{&a, 1}, Factor{&b, -1}};
    EXPECT_NEAR(*product_of(factors), typical_ratio(a, b), 1e-12);
    const auto product = product_interval(factors, 0.95);
    const auto ratio = typical_ratio_interval(a, b, 0.95);
    ASSERT_TRUE(product && ratio);
    EXPECT_NEAR(product->low, ratio->low, 1e-12);
    EXPECT_NEAR(product->high, ratio->high, 1e-12);
    // A run of 0 takes it off the log scale: no product.
    const Sample zero = sample_of(std::vector<double>{0, 1, 2});
    EXPECT_FALSE(product_of(std::array<Factor, 2>{Factor{&a, 1}, Factor{&zero, -1}}));
}

TEST(SpreadStatistics, TheIntervalIsTheFDistributions) {
    // Equal variances, 4 runs each: F(0.975; 3, 3) = 15.439, so √(1/15.439) to √15.439.
    const Sample a = sample_of(std::vector<double>{1, 2, 3, 4});
    const Sample b = sample_of(std::vector<double>{-1, -2, -3, -4});
    EXPECT_DOUBLE_EQ(*spread_ratio(a, b), 1.0);
    const auto ci = spread_ratio_interval(a, b, 0.95);
    ASSERT_TRUE(ci.has_value());
    EXPECT_NEAR(ci->low, std::sqrt(1 / 15.439), 1e-3);
    EXPECT_NEAR(ci->high, std::sqrt(15.439), 1e-3);
    // Runs that do not vary in the denominator: no ratio.
    const Sample flat = sample_of(std::vector<double>{5, 5, 5});
    EXPECT_FALSE(spread_ratio(a, flat));
    EXPECT_FALSE(spread_ratio_interval(a, flat, 0.95));
}

TEST(RatioAlongClaims, TheGainGrowsWithTheVariable) {
    // patch=yes over patch=no: 1.1, 1.3, 1.6 along x.
    const std::vector<double> gain = {1.1, 1.3, 1.6};
    const ResultsDir r = patch_along({"10", "50", "90"}, [&](const std::string& patch, size_t i) {
        return around(patch == "yes" ? 100 * gain[i] : 100);
    });
    experiment::Claim c = claim_on(experiment::ClaimKind::ratio_along, "patch=yes", "patch=no");
    c.shape = experiment::Shape::increasing;
    c.over = "x";
    c.min_step = 0.1;
    const ClaimResult grows = testing::judge_claim(c, r);
    EXPECT_EQ(grows.judgement.verdict, Verdict::agrees) << grows.why;
    EXPECT_EQ(grows.judgement.cells.size(), 6U);
    EXPECT_NE(grows.measured.find("ratio 10: 1.100 → 50: 1.300 → 90: 1.600"), std::string::npos)
        << grows.measured;
    // Each step at least 25% up: 1.3/1.1 = 1.18 is wholly below.
    c.min_step = 0.25;
    const ClaimResult steep = testing::judge_claim(c, r);
    EXPECT_EQ(steep.judgement.verdict, Verdict::differs) << steep.why;
    EXPECT_NE(steep.why.find("x 50 over 10 is 1.182"), std::string::npos) << steep.why;
    // Flat within ±5%: it is not.
    c.shape = experiment::Shape::flat;
    c.min_step = 0;
    c.tolerance = 0.05;
    EXPECT_EQ(testing::judge_claim(c, r).judgement.verdict, Verdict::differs);
}

TEST(RatioAlongClaims, SpreadRunsLeaveItOpen) {
    const ResultsDir r = patch_along({"10", "50"}, [](const std::string& patch, size_t i) {
        return patch == "yes" ? around(i == 0 ? 110 : 118, 0.15) : around(100, 0.15);
    });
    experiment::Claim c = claim_on(experiment::ClaimKind::ratio_along, "patch=yes", "patch=no");
    c.shape = experiment::Shape::increasing;
    c.over = "x";
    c.min_step = 0.05;
    const ClaimResult open = testing::judge_claim(c, r);
    EXPECT_EQ(open.judgement.verdict, Verdict::inconclusive) << open.why;
}

experiment::Claim depends_on_index() {
    // (patch=yes x=10 / patch=no x=10) over (patch=yes x=50 / patch=no x=50).
    experiment::Claim c =
        claim_on(experiment::ClaimKind::ratio_of_ratios, "patch=yes x=10", "patch=no x=10");
    c.divided_by_cell = *experiment::parse_cell_selector("patch=yes x=50");
    c.divided_by_baseline = *experiment::parse_cell_selector("patch=no x=50");
    return c;
}

TEST(RatioOfRatiosClaims, InsideOutsideAndStraddling) {
    // Gains 1.5 at x=10 and 1.2 at x=50: a ratio of ratios of 1.25.
    const ResultsDir r = patch_along({"10", "50"}, [](const std::string& patch, size_t i) {
        return around(patch == "yes" ? (i == 0 ? 150 : 120) : 100);
    });
    experiment::Claim c = depends_on_index();
    c.paper = 1.25;
    c.tolerance = 0.1;
    const ClaimResult inside = testing::judge_claim(c, r);
    EXPECT_EQ(inside.judgement.verdict, Verdict::agrees) << inside.why;
    EXPECT_NEAR(*inside.judgement.value, 1.25, 1e-9);
    EXPECT_NE(inside.measured.find("= 1.500 / 1.200"), std::string::npos) << inside.measured;
    EXPECT_EQ(inside.judgement.cells.size(), 4U);
    c.paper.reset();
    c.at_most = 1.0; // "the gain is no larger at x=10": wholly above
    EXPECT_EQ(testing::judge_claim(c, r).judgement.verdict, Verdict::differs);
    const ResultsDir spread = patch_along({"10", "50"}, [](const std::string& patch, size_t i) {
        return around(patch == "yes" ? (i == 0 ? 150 : 120) : 100, 0.2);
    });
    c.at_most.reset();
    c.at_least = 1.2;
    EXPECT_EQ(testing::judge_claim(c, spread).judgement.verdict, Verdict::inconclusive);
}

TEST(RatioOfRatiosClaims, TooFewRunsDecideNothing) {
    const ResultsDir r = patch_along({"10", "50"}, [](const std::string& patch, size_t) {
        return std::vector<double>{patch == "yes" ? 150.0 : 100.0, patch == "yes" ? 151.0 : 99.0};
    });
    experiment::Claim c = depends_on_index();
    c.at_least = 1.1;
    const ClaimResult few = testing::judge_claim(c, r);
    EXPECT_EQ(few.judgement.verdict, Verdict::inconclusive) << few.why;
    EXPECT_FALSE(few.judgement.ci95.has_value());
}

TEST(SpreadClaims, ThePlainScanVariesMore) {
    // patch=no varies about ten times as much as patch=yes at x=10.
    const ResultsDir r = patch_along({"10"}, [](const std::string& patch, size_t) {
        return patch == "no" ? std::vector<double>{80, 120, 90, 110, 100, 70, 130, 100}
                             : std::vector<double>{98, 102, 99, 101, 100, 97, 103, 100};
    });
    experiment::Claim c = claim_on(experiment::ClaimKind::spread, "patch=no", "patch=yes");
    c.at_least = 1.5;
    const ClaimResult more = testing::judge_claim(c, r);
    EXPECT_EQ(more.judgement.verdict, Verdict::agrees) << more.why;
    EXPECT_NE(more.measured.find("sd of the logs"), std::string::npos) << more.measured;
    // The other way round it is wholly below 1.5.
    const ClaimResult less =
        testing::judge_claim(claim_on(experiment::ClaimKind::spread, "patch=yes", "patch=no"), r);
    EXPECT_EQ(less.judgement.verdict, Verdict::inconclusive)
        << less.why; // no figure given: nothing to test
    c = claim_on(experiment::ClaimKind::spread, "patch=yes", "patch=no");
    c.at_least = 1.5;
    EXPECT_EQ(testing::judge_claim(c, r).judgement.verdict, Verdict::differs);
}

TEST(SpreadClaims, OneRunOrNoVariationDecidesNothing) {
    const ResultsDir one =
        patch_along({"10"}, [](const std::string&, size_t) { return std::vector<double>{100}; });
    experiment::Claim c = claim_on(experiment::ClaimKind::spread, "patch=no", "patch=yes");
    c.at_least = 1.5;
    const ClaimResult single = testing::judge_claim(c, one);
    EXPECT_EQ(single.judgement.verdict, Verdict::inconclusive) << single.why;
    EXPECT_NE(single.why.find("one run of a cell has none"), std::string::npos) << single.why;
    const ResultsDir still = patch_along({"10"}, [](const std::string& patch, size_t) {
        return patch == "yes" ? std::vector<double>{100, 100, 100}
                              : std::vector<double>{90, 100, 110};
    });
    const ClaimResult none = testing::judge_claim(c, still);
    EXPECT_EQ(none.judgement.verdict, Verdict::untestable) << none.why;
    EXPECT_NE(none.why.find("do not vary"), std::string::npos) << none.why;
}

} // namespace
} // namespace pglab::lab::report
