// lab/run: a `repeat` until decided, once the planned runs are done: rounds of the cells whose
// claims are still undecided (whole blocks in a paired plan), each recorded in plan.json before
// it runs.
#pragma once

#include "lab/judge/claim_judge.hpp"
#include "lab/run/orchestrator.hpp"
#include "lab/run/prepare.hpp"
#include "lab/run/run_progress.hpp"
#include "lab/store/results_store.hpp"

#include <optional>

namespace pglab::lab::run {

/// The judge of the claims for a `repeat` until decided (lab/judge), built once from the results
/// directory as it stands (a --resume's runs included); the run adds each run that finishes.
/// None without `repeat` until decided, or when the directory cannot be read (the log says why:
/// then no round is added).
std::optional<judge::ClaimJudge> judge_for_rounds(const Prepared& p,
                                                  const store::ResultsStore& results);

/// Adds the next round to the plan and to plan.json: true when there is one. None (and the log
/// says why) when `judge`, looking at the runs so far, finds every claim decided, when each cell
/// an undecided claim reads has `max` measured runs, or when the budget is spent.
bool plan_next_round(Prepared& p, judge::ClaimJudge& judge, store::ResultsStore& results,
                     Progress& progress);

} // namespace pglab::lab::run
