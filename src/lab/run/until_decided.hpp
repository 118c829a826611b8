// lab/run: a `repeat` until decided, once the planned runs are done: rounds of the cells whose
// claims are still undecided (whole blocks in a paired plan), each recorded in plan.json before
// it runs.
#pragma once

#include "lab/run/orchestrator.hpp"
#include "lab/run/prepare.hpp"
#include "lab/run/run_progress.hpp"
#include "lab/store/results_store.hpp"

namespace pglab::lab::run {

/// Adds the next round to the plan and to plan.json: true when there is one. None (and the log
/// says why) when every claim is decided, when each such cell has `max` measured runs, or when
/// the budget is spent.
bool plan_next_round(Prepared& p, const RunRequest& request, store::ResultsStore& results,
                     Progress& progress);

} // namespace pglab::lab::run
