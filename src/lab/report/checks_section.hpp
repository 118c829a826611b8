// The report's functional checks: one row per check of every run (step, kind, expected, actual,
// pass or FAIL), read from the `checks` arrays of the step objects. Shown near the top.
#pragma once

#include "lab/report/document.hpp"
#include "lab/report/results.hpp"

#include <cstddef>

namespace pglab::lab::report {

/// How many checks the results hold and how many failed.
struct CheckCounts {
    std::size_t total = 0;
    std::size_t failed = 0;
};

/// Adds the "Functional checks" section to `doc` when the runs hold checks (nothing otherwise).
CheckCounts add_checks_section(const ResultsDir& results, Document& doc);

} // namespace pglab::lab::report
