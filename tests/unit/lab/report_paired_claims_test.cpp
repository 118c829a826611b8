// Ratios judged in pairs (issue 48, stage 5): runs made in rounds, one of each cell per round, are
// judged on the rounds' log differences. A drift that moves both runs of a round cancels: the
// same runs decide the claim paired and stay inconclusive unpaired. A ratio of ratios is judged
// the same way, round by round over its four cells.
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

/// One run of each cell of step "q" per round, five rounds, the machine drifting from round to
/// round: cell i takes base[i] ms times the round's drift, cell 0 with 0.3% of noise on top.
void add_drifting_rounds(ResultsDir& r, const std::vector<double>& base) {
    const std::vector<double> drift = {1.0, 1.3, 0.8, 1.5, 1.1};
    const std::vector<double> noise = {1.004, 0.997, 1.002, 0.999, 1.003};
    std::int64_t run = 0;
    for (std::size_t round = 0; round < drift.size(); ++round) {
        for (std::size_t cell = 0; cell < base.size(); ++cell) {
            const double ms = base[cell] * drift[round] * (cell == 0 ? noise[round] : 1.0);
            store::FinishedRun f = testing::finished_run(run++, static_cast<std::int64_t>(cell),
                                                         testing::timed_sql_steps("q", ms));
            f.record.round = static_cast<std::uint32_t>(round + 1);
            r.runs.push_back(std::move(f));
        }
    }
}

/// Cells A (0) and B (1) of a timed-sql step "q", one run of each per round, in `order`: the
/// machine drifts from round to round (1.0, 1.3, 0.8, 1.5, 1.1), A and B equal within 1%.
ResultsDir drifting(const std::string& order) {
    ResultsDir r;
    r.variables = {"side"};
    r.plan = store::PlanRecord{};
    r.plan->order = order;
    for (const char* side : {"A", "B"}) {
        Cell c;
        c.index = r.cells.size();
        c.bindings = {{"side", {std::string(side), {}}}};
        c.label = std::string("side=") + side;
        r.cells.push_back(c);
    }
    add_drifting_rounds(r, {100.0, 100.0});
    return r;
}

experiment::Claim equal_within_3_percent() {
    experiment::Claim c;
    c.text = "A and B are equal within 3%";
    c.step = "q";
    c.metric = "client_ms";
    c.kind = experiment::ClaimKind::ratio;
    c.cell = *experiment::parse_cell_selector("side=A");
    c.baseline = *experiment::parse_cell_selector("side=B");
    c.paper = 1.0;
    c.tolerance = 0.03;
    return c;
}

TEST(PairedClaims, ADriftThatMovesBothCellsCancelsInPairs) {
    const ClaimResult paired = testing::judge_claim(equal_within_3_percent(), drifting("paired"));
    EXPECT_EQ(paired.judgement.verdict, Verdict::agrees) << paired.why;
    EXPECT_NE(paired.measured.find("geometric means of 5 rounds, judged in pairs"),
              std::string::npos)
        << paired.measured;
    EXPECT_EQ(paired.judgement.runs, 5U);
    EXPECT_EQ(paired.judgement.basis, judge::Basis::paired);
    // The same runs, not made in rounds: the drift is spread, and nothing is decided.
    const ClaimResult unpaired = testing::judge_claim(equal_within_3_percent(), drifting("random"));
    EXPECT_EQ(unpaired.judgement.verdict, Verdict::inconclusive) << unpaired.why;
    EXPECT_EQ(unpaired.judgement.basis, judge::Basis::independent);
    EXPECT_EQ(unpaired.measured.find("pairs"), std::string::npos) << unpaired.measured;
}

TEST(PairedClaims, InterleavedRoundsPairTooAndTooFewPairsDoNot) {
    EXPECT_EQ(
        testing::judge_claim(equal_within_3_percent(), drifting("interleaved")).judgement.verdict,
        Verdict::agrees);
    ResultsDir two = drifting("paired");
    two.runs.resize(4); // rounds 1 and 2 only
    const ClaimResult few = testing::judge_claim(equal_within_3_percent(), two);
    EXPECT_EQ(few.judgement.verdict, Verdict::inconclusive) << few.why;
    EXPECT_FALSE(few.judgement.ci95.has_value());
}

/// Cells side=A|B x index=on|off (0: A on, 1: B on, 2: A off, 3: B off) of step "q", one run of
/// each per round, in `order`, the machine drifting from round to round: A takes twice B's time
/// with the index, the same without, within 1%.
ResultsDir drifting_four(const std::string& order) {
    ResultsDir r;
    r.variables = {"side", "index"};
    r.plan = store::PlanRecord{};
    r.plan->order = order;
    for (const char* index : {"on", "off"}) {
        for (const char* side : {"A", "B"}) {
            Cell c;
            c.index = r.cells.size();
            c.bindings = {{"side", {std::string(side), {}}}, {"index", {std::string(index), {}}}};
            c.label = std::string("side=") + side + " index=" + index;
            r.cells.push_back(c);
        }
    }
    add_drifting_rounds(r, {200.0, 100.0, 100.0, 100.0});
    return r;
}

experiment::Claim gain_doubles_with_the_index() {
    experiment::Claim c;
    c.text = "A's cost over B's doubles with the index";
    c.step = "q";
    c.metric = "client_ms";
    c.kind = experiment::ClaimKind::ratio_of_ratios;
    c.cell = *experiment::parse_cell_selector("side=A; index=on");
    c.baseline = *experiment::parse_cell_selector("side=B; index=on");
    c.divided_by_cell = *experiment::parse_cell_selector("side=A; index=off");
    c.divided_by_baseline = *experiment::parse_cell_selector("side=B; index=off");
    c.paper = 2.0;
    c.tolerance = 0.05;
    return c;
}

TEST(PairedClaims, ARatioOfRatiosIsJudgedRoundByRound) {
    const ClaimResult rounds =
        testing::judge_claim(gain_doubles_with_the_index(), drifting_four("paired"));
    EXPECT_EQ(rounds.judgement.verdict, Verdict::agrees) << rounds.why;
    EXPECT_NE(rounds.measured.find("judged round by round (5 rounds)"), std::string::npos)
        << rounds.measured;
    EXPECT_NEAR(rounds.judgement.value.value_or(0), 2.0, 0.01);
    EXPECT_EQ(rounds.judgement.runs, 5U);
    // Not made in rounds: the drift widens every cell, and nothing is decided.
    const ClaimResult spread =
        testing::judge_claim(gain_doubles_with_the_index(), drifting_four("random"));
    EXPECT_EQ(spread.judgement.verdict, Verdict::inconclusive) << spread.why;
    EXPECT_EQ(spread.measured.find("round by round"), std::string::npos) << spread.measured;
    EXPECT_NE(spread.why.find("each cell"), std::string::npos) << spread.why;
}

} // namespace
} // namespace pglab::lab::report
