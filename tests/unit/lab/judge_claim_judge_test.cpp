// The judge grown round by round (lab/judge/claim_judge.hpp): what `pglab run` decides while its
// rounds run is what the report judges afterwards from the directory, a claim an earlier look
// decided stays decided, and only the cells of undecided claims are asked for again.
#include "lab/judge/claim_judge.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "finished_runs.hpp"

namespace pglab::lab::judge {
namespace {

constexpr std::uint32_t k_rounds = 6;

/// Cells A (0), B (1) and C (2) of a timed-sql step "q", one run of each per round, in paired
/// rounds: B takes 1.5 times A's time, C as long as A within a noise of about 2%.
store::ResultsDir three_cells() {
    store::ResultsDir r;
    r.variables = {"side"};
    r.plan = store::PlanRecord{};
    r.plan->order = "paired";
    r.plan->repeat = 2;
    r.plan->repeat_max = k_rounds;
    for (const char* side : {"A", "B", "C"}) {
        store::Cell c;
        c.index = r.cells.size();
        c.bindings = {{"side", {std::string(side), {}}}};
        c.label = std::string("side=") + side;
        r.cells.push_back(c);
    }
    const std::vector<double> noise = {1.02, 0.97, 1.01, 0.99, 1.03, 0.98};
    std::int64_t run = 0;
    for (std::uint32_t round = 1; round <= k_rounds; ++round) {
        const double a = 100.0 * (1.0 + 0.1 * (round % 2));
        for (const double ms : {a, 1.5 * a * noise[(round + 2) % k_rounds], a * noise[round - 1]}) {
            const std::int64_t cell = run % 3;
            store::FinishedRun f =
                testing::finished_run(run++, cell, testing::timed_sql_steps("q", ms));
            f.record.round = round;
            f.record.timings.total_ms = 10.0;
            r.runs.push_back(std::move(f));
        }
    }
    return r;
}

experiment::Claim ratio_claim(const char* cell, double paper, double tolerance) {
    experiment::Claim c;
    c.text = std::string(cell) + " over A";
    c.step = "q";
    c.metric = "client_ms";
    c.kind = experiment::ClaimKind::ratio;
    c.cell = *experiment::parse_cell_selector(std::string("side=") + cell);
    c.baseline = *experiment::parse_cell_selector("side=A");
    c.paper = paper;
    c.tolerance = tolerance;
    return c;
}

/// B is 1.5 times A (decided early); C equals A within 1% (the noise keeps it open longer).
std::vector<experiment::Claim> claims() {
    return {ratio_claim("B", 1.5, 0.1), ratio_claim("C", 1.0, 0.01)};
}

TEST(ClaimJudge, GrownRunByRunItJudgesAsTheDirectoryIsJudgedAfterwards) {
    const store::ResultsDir all = three_cells();
    store::ResultsDir plan_only = all;
    plan_only.runs.clear();
    ClaimJudge live(claims(), plan_only);
    for (const store::FinishedRun& f : all.runs) {
        live.add(f);
        if (f.record.cell == 2 && f.record.round >= 2 && f.record.round < k_rounds) {
            live.look(); // the end of a round, from the `repeat`-th on
        }
    }
    const std::vector<ClaimJudgement> during = live.judgements();
    const std::vector<ClaimJudgement> after = judge_claims(claims(), all);
    ASSERT_EQ(during.size(), 2U);
    ASSERT_EQ(after.size(), 2U);
    for (std::size_t i = 0; i < during.size(); ++i) {
        EXPECT_EQ(during[i].judgement, after[i].judgement) << "claim " << i;
    }
    EXPECT_DOUBLE_EQ(live.runs_ms(), 10.0 * 3 * k_rounds);
}

TEST(ClaimJudge, AClaimAnEarlierLookDecidedKeepsThatLooksVerdict) {
    const store::ResultsDir all = three_cells();
    const std::vector<ClaimJudgement> judged = judge_claims(claims(), all);
    ASSERT_EQ(judged.size(), 2U);
    const Judgement& b = judged[0].judgement;
    EXPECT_EQ(b.verdict, Verdict::agrees);
    EXPECT_EQ(b.basis, Basis::paired);
    EXPECT_LT(b.runs, std::size_t{k_rounds}) << "decided before the last round";
    ASSERT_TRUE(b.all_runs.has_value());
    EXPECT_EQ(b.all_runs->runs, std::size_t{k_rounds});
    // Judged once on every run, with no earlier look, it stands on all of them.
    ClaimJudge once(claims(), all);
    EXPECT_EQ(once.judgements()[0].judgement.runs, std::size_t{k_rounds});
    EXPECT_FALSE(once.judgements()[0].judgement.all_runs.has_value());
}

TEST(ClaimJudge, OnlyTheCellsOfUndecidedClaimsAreAskedForAgain) {
    // The rounds up to the look that decided B over A.
    const std::size_t decided_at = judge_claims(claims(), three_cells())[0].judgement.runs;
    store::ResultsDir first_rounds = three_cells();
    std::erase_if(first_rounds.runs,
                  [&](const store::FinishedRun& f) { return f.record.round > decided_at; });
    ClaimJudge judge(claims(), first_rounds);
    judge.look();
    const std::vector<ClaimJudgement> now = judge.judgements();
    ASSERT_EQ(now.size(), 2U);
    ASSERT_TRUE(is_decided(now[0].judgement.verdict));
    ASSERT_EQ(now[1].judgement.verdict, Verdict::inconclusive);
    EXPECT_EQ(judge.undecided_cells(), (std::vector<std::size_t>{0, 2}));
    // Every claim decided, or none to judge: nothing is asked for.
    ClaimJudge decided({claims()[0]}, first_rounds);
    decided.look();
    EXPECT_TRUE(decided.undecided_cells().empty());
}

} // namespace
} // namespace pglab::lab::judge
