// Shape claims judged with intervals (issue 48): "flat within ±b" tests each level over the
// first, "increasing"/"decreasing" each level over the one before, as ratio claims are tested;
// fixed samples inside, outside and straddling the band, and levels of one and two runs.
#include "lab/report/claims.hpp"
#include "lab/report/metrics.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "finished_runs.hpp"
#include "judge_claim.hpp"

namespace pglab::lab::report {
namespace {

/// A results directory of one timed-sql step "q" whose client_ms runs are `levels[i]` in the
/// cell clients=`(i + 1) * 10`.
ResultsDir along_clients(const std::vector<std::vector<double>>& levels) {
    ResultsDir r;
    r.variables = {"clients"};
    std::int64_t run = 0;
    for (std::size_t i = 0; i < levels.size(); ++i) {
        Cell c;
        c.index = i;
        const auto clients = static_cast<std::int64_t>((i + 1) * 10);
        c.bindings = {{"clients", {clients, {}}}};
        c.label = "clients=" + std::to_string(clients);
        r.cells.push_back(c);
        for (const double ms : levels[i]) {
            const nlohmann::json steps = nlohmann::json::array({{{"index", 0},
                                                                 {"key", "q"},
                                                                 {"type", "timed-sql"},
                                                                 {"status", "ok"},
                                                                 {"client_ms", ms},
                                                                 {"server_ms", ms}}});
            r.runs.push_back(testing::finished_run(run++, static_cast<std::int64_t>(i), steps));
        }
    }
    return r;
}

experiment::Claim shape_claim(const std::string& shape, double tolerance, double min_step = 0) {
    experiment::Claim c;
    c.text = shape;
    c.step = "q";
    c.metric = "client_ms";
    c.kind = experiment::ClaimKind::shape;
    c.shape = experiment::shape_named(shape);
    c.over = "clients";
    c.tolerance = tolerance;
    c.min_step = min_step;
    return c;
}

TEST(ShapeClaims, FlatAgreesWhenEveryLevelOverTheFirstIsWithinTheBand) {
    const ResultsDir r =
        along_clients({{100, 101, 99, 100}, {101, 100, 102, 101}, {99, 100, 98, 99}});
    const ClaimResult c = testing::judge_claim(shape_claim("flat", 0.05), r);
    EXPECT_EQ(c.judgement.verdict, Verdict::agrees) << c.why;
    EXPECT_NE(c.why.find("each of the 2 ratios"), std::string::npos) << c.why;
    EXPECT_EQ(c.judgement.cells, (std::vector<std::int64_t>{0, 1, 2}));
    EXPECT_EQ(c.judgement.runs, 4U);
}

TEST(ShapeClaims, FlatDiffersWhenALevelIsWhollyOutsideTheBand) {
    const ResultsDir r =
        along_clients({{100, 101, 99, 100}, {101, 100, 102, 101}, {80, 81, 79, 80}});
    const ClaimResult c = testing::judge_claim(shape_claim("flat", 0.05), r);
    EXPECT_EQ(c.judgement.verdict, Verdict::differs) << c.why;
    EXPECT_NE(c.why.find("clients 30 over 10 is 0.800"), std::string::npos) << c.why;
    EXPECT_NE(c.why.find("lies wholly outside 1.000 ± 5%"), std::string::npos) << c.why;
}

TEST(ShapeClaims, FlatStraddlingTheBandIsInconclusiveAndSaysHowManyRunsMore) {
    // 10 → 20 about 5% up with a wide spread: the interval reaches both sides of 1.05.
    const ResultsDir r = along_clients({{100, 90, 110, 100}, {105, 95, 115, 105}});
    const ClaimResult c = testing::judge_claim(shape_claim("flat", 0.05), r);
    EXPECT_EQ(c.judgement.verdict, Verdict::inconclusive) << c.why;
    EXPECT_NE(c.why.find("more run"), std::string::npos) << c.why;
}

TEST(ShapeClaims, LevelsOfOneOrTwoRunsAreNeverDecided) {
    // The means are plainly flat, and plainly growing: still no verdict without intervals.
    for (const std::vector<std::vector<double>>& levels :
         {std::vector<std::vector<double>>{{100}, {100}, {100}},
          std::vector<std::vector<double>>{{100, 100}, {100, 101}, {200, 201}}}) {
        const ResultsDir r = along_clients(levels);
        for (const auto& claim : {shape_claim("flat", 0.05), shape_claim("increasing", 0.05)}) {
            const ClaimResult c = testing::judge_claim(claim, r);
            EXPECT_EQ(c.judgement.verdict, Verdict::inconclusive) << c.why;
            EXPECT_NE(c.why.find("a shape needs 3 runs at every level, the fewest here is "
                                 + std::to_string(levels[0].size())),
                      std::string::npos)
                << c.why;
        }
    }
}

TEST(ShapeClaims, IncreasingNeedsEveryStepsOneSidedBoundAboveTheLeastStep) {
    const ResultsDir r =
        along_clients({{100, 101, 99, 100}, {120, 121, 119, 120}, {150, 151, 149, 150}});
    EXPECT_EQ(testing::judge_claim(shape_claim("increasing", 0.05, 0.1), r).judgement.verdict,
              Verdict::agrees);
    // Each step must be 30% at least: 20 over 10 (1.2) is wholly below.
    const ClaimResult steep = testing::judge_claim(shape_claim("increasing", 0.05, 0.3), r);
    EXPECT_EQ(steep.judgement.verdict, Verdict::differs) << steep.why;
    EXPECT_NE(steep.why.find("clients 20 over 10 is 1.200"), std::string::npos) << steep.why;
    // Decreasing: every step is wholly above 1.
    EXPECT_EQ(testing::judge_claim(shape_claim("decreasing", 0.05), r).judgement.verdict,
              Verdict::differs);
}

TEST(ShapeClaims, APlateauIsNotGrowth) {
    // 10 → 20 grows by 20%, 20 → 30 stays: the second step cannot be shown to grow by 5%.
    const ResultsDir r =
        along_clients({{100, 101, 99, 100}, {120, 121, 119, 120}, {120, 119, 121, 120}});
    const ClaimResult c = testing::judge_claim(shape_claim("increasing", 0.05, 0.05), r);
    EXPECT_EQ(c.judgement.verdict, Verdict::differs) << c.why;
    EXPECT_NE(c.why.find("clients 30 over 20"), std::string::npos) << c.why;
}

TEST(ShapeClaims, RisesThenLevelsOffSaysWhere) {
    const ResultsDir r = along_clients({{100, 101, 99, 100},
                                        {200, 202, 198, 200},
                                        {300, 303, 297, 300},
                                        {305, 306, 304, 305},
                                        {298, 299, 297, 298}});
    const ClaimResult c = testing::judge_claim(shape_claim("levels_off", 0.05, 0.1), r);
    EXPECT_EQ(c.judgement.verdict, Verdict::agrees) << c.why;
    // The reading, as values: the knee, the two steps up to it, the two levels after it, and the
    // ratios shown (each level over the one before).
    ASSERT_TRUE(c.shape.has_value());
    EXPECT_EQ(c.shape->knee, "30");
    EXPECT_EQ(c.shape->steps_up, 2U);
    EXPECT_EQ(c.shape->levels_after, 2U);
    ASSERT_EQ(c.shape->shown.size(), 4U);
    EXPECT_EQ(c.shape->shown[0].a, "20");
    EXPECT_EQ(c.shape->shown[0].b, "10");
    EXPECT_TRUE(c.shape->outcome.differs.empty());
    // Its words:
    EXPECT_NE(c.why.find("levels off at clients 30"), std::string::npos) << c.why;
    EXPECT_NE(c.measured.find("; levels off at 30"), std::string::npos) << c.measured;
}

TEST(ShapeClaims, GrowthToTheEndOrNoRiseDoesNotLevelOff) {
    const ClaimResult rising = testing::judge_claim(shape_claim("levels_off", 0.05, 0.1),
                                                    along_clients({{100, 101, 99, 100},
                                                                   {200, 202, 198, 200},
                                                                   {300, 303, 297, 300},
                                                                   {400, 404, 396, 400}}));
    EXPECT_EQ(rising.judgement.verdict, Verdict::differs) << rising.why;
    ASSERT_TRUE(rising.shape.has_value());
    ASSERT_FALSE(rising.shape->not_at.empty());
    EXPECT_EQ(rising.shape->not_at.front().first, "20"); // at 20 the next level is no plateau
    EXPECT_EQ(rising.shape->not_at.front().second.a, "30");
    EXPECT_NE(rising.why.find("it levels off at no level: not at 20: clients 30 over 20"),
              std::string::npos)
        << rising.why;
    const ClaimResult flat = testing::judge_claim(
        shape_claim("levels_off", 0.05, 0.1),
        along_clients({{100, 101, 99, 100}, {100, 101, 99, 100}, {100, 101, 99, 100}}));
    EXPECT_EQ(flat.judgement.verdict, Verdict::differs) << flat.why;
    EXPECT_NE(flat.why.find("clients 20 over 10"), std::string::npos) << flat.why;
}

TEST(ShapeClaims, LevellingOffNeedsThreeLevelsAndThreeRunsEach) {
    const ClaimResult two = testing::judge_claim(shape_claim("levels_off", 0.05, 0.1),
                                                 along_clients({{100, 101, 99}, {200, 201, 199}}));
    EXPECT_EQ(two.judgement.verdict, Verdict::untestable);
    EXPECT_EQ(two.why, "fewer than three cells along clients");
    const ClaimResult few = testing::judge_claim(
        shape_claim("levels_off", 0.05, 0.1), along_clients({{100, 101}, {200, 202}, {201, 203}}));
    EXPECT_EQ(few.judgement.verdict, Verdict::inconclusive) << few.why;
    EXPECT_NE(few.why.find("a shape needs 3 runs at every level"), std::string::npos) << few.why;
    // The plateau straddles the band: open, naming the likeliest level.
    const ClaimResult open = testing::judge_claim(
        shape_claim("levels_off", 0.05, 0.1),
        along_clients({{100, 101, 99, 100}, {200, 202, 198, 200}, {205, 180, 230, 210}}));
    EXPECT_EQ(open.judgement.verdict, Verdict::inconclusive) << open.why;
    EXPECT_NE(open.why.find("at 20 (the likeliest level it levels off at)"), std::string::npos)
        << open.why;
}

TEST(ShapeClaims, ADeclaredExactMetricIsJudgedOnItsValues) {
    const ResultsDir r = along_clients({{100}, {100}});
    experiment::Claim c = shape_claim("flat", 0.0);
    c.exact = true;
    const ClaimResult exact = testing::judge_claim(c, r);
    EXPECT_EQ(exact.judgement.verdict, Verdict::agrees) << exact.why;
    EXPECT_NE(exact.why.find("declared exact"), std::string::npos) << exact.why;
}

} // namespace
} // namespace pglab::lab::report
