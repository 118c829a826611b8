// lab/run: plan_next_round.
#include "lab/run/until_decided.hpp"

#include "util/log.hpp"

#include <utility>
#include <vector>

namespace pglab::lab::run {

std::optional<judge::ClaimJudge> judge_for_rounds(const Prepared& p,
                                                  const store::ResultsStore& results) {
    if (!p.spec.until_decided) {
        return std::nullopt;
    }
    auto so_far = store::load_results(results.dir());
    if (!so_far) {
        log::warning("could not read the results to judge the claims ({}): no rounds are added",
                     so_far.error().message);
        return std::nullopt;
    }
    std::vector<experiment::Claim> claims = judge::read_claims(*so_far).claims;
    return judge::ClaimJudge(std::move(claims), std::move(*so_far));
}

bool plan_next_round(Prepared& p, judge::ClaimJudge& judge, store::ResultsStore& results,
                     Progress& progress) {
    const experiment::RepeatUntilDecided& until = *p.spec.until_decided;
    progress.end();
    judge.look();
    const std::vector<std::size_t> undecided = judge.undecided_cells();
    if (undecided.empty()) {
        log::info("repeat until decided: every claim is decided");
        return false;
    }
    if (until.budget_ms > 0 && judge.runs_ms() >= static_cast<double>(until.budget_ms)) {
        log::info("repeat until decided: the budget ({:.0f} s) is spent with claims undecided; "
                  "the report says why each stayed so",
                  static_cast<double>(until.budget_ms) / 1000.0);
        return false;
    }
    std::vector<std::uint32_t> measured(p.plan.cells.size(), 0);
    for (const plan::PlannedRun& run : p.plan.runs) {
        measured[run.cell] += run.warmup ? 0 : 1;
    }
    std::vector<std::size_t> cells;
    for (const std::size_t c : undecided) {
        if (c < measured.size() && measured[c] < until.max) {
            cells.push_back(c);
        }
    }
    if (cells.empty()) {
        log::info("repeat until decided: claims are still undecided after {} runs of each of "
                  "their cells (max); the report says why each stayed so",
                  until.max);
        return false;
    }
    const std::vector<plan::PlannedRun> added = plan::add_round(
        p.plan, cells,
        p.plan.order == experiment::RunOrder::paired ? plan::claim_blocks(p.spec, p.plan.cells)
                                                     : std::vector<std::vector<std::size_t>>{});
    std::vector<store::PlanRun> recorded;
    for (const plan::PlannedRun& run : added) {
        recorded.push_back({run.ordinal, run.cell, run.repetition, run.warmup, run.round});
    }
    if (auto st = results.add_planned_runs(recorded); !st) {
        log::print(st.error());
        p.plan.runs.resize(p.plan.runs.size() - added.size());
        return false;
    }
    progress.add(added.size());
    log::info("repeat until decided: round {} runs {} cell(s) whose claims are undecided",
              added.front().round, cells.size());
    return true;
}

} // namespace pglab::lab::run
