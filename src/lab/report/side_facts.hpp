// What each side of a comparison ran, so that `pglab compare` opens with what differs between
// them before any figure: the pglab that ran it, the machine, the form of the experiment, the
// servers' versions and settings, each bench step's arguments and how long it ran. Two results
// directories of one experiment can differ in all of these (one ran 10 s benches, the other 100
// transactions a client), and a figure compared across such a difference measures it.
#pragma once

#include "lab/experiment/cell_selector.hpp"
#include "lab/report/results.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace pglab::lab::report {

/// One side's facts: each named fact ("server version", "setting shared_buffers", "step tpcb
/// arguments") with the values its measured runs had.
struct SideFacts {
    std::map<std::string, std::set<std::string>> facts;
    /// Each bench step's median measured duration, seconds.
    std::map<std::string, double> bench_seconds;
};

/// The facts of the runs of `results` whose cells match `selector` (every cell when empty).
SideFacts side_facts(const ResultsDir& results, const experiment::CellSelector& selector);

/// What differs between `a` and `b`, one sentence each ("server version: 16.4 in pg16, 17.0 in
/// pg17"), in the order of the facts' names; a bench duration differs when one side's median is
/// more than 1.2 times the other's. `name_a` and `name_b` name the sides.
std::vector<std::string> fact_differences(const SideFacts& a, const SideFacts& b,
                                          const std::string& name_a, const std::string& name_b);

} // namespace pglab::lab::report
