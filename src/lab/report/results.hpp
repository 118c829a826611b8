// The report reads its runs through lab/store's results directory (lab/store/results_dir.hpp),
// by these names until its callers name them store:: (issue 63: the judge grows between the
// store and the report, strangler-wise).
#pragma once

#include "lab/store/results_dir.hpp"

namespace pglab::lab::report {

using store::Cell;
using store::find_cell;
using store::FinishedRun;
using store::load_results;
using store::plan_has_claims;
using store::ResultsDir;

} // namespace pglab::lab::report
