// The report's names for lab/store's results directory (lab/store/results_dir.hpp): one list, so
// that no report file repeats it. The report reads runs only through the store's typed records.
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
