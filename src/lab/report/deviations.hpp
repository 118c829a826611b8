// The steps a file says are not the paper's (`deviation = "why"`), and the cells they ran in: a
// reader comparing a figure with the paper's sees at once which cells departed from its
// procedure, and why.
#pragma once

#include "lab/report/document.hpp"
#include "lab/report/results.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pglab::lab::report {

/// A step that departs from the paper, and the cells in which some measured run ran it.
struct Deviation {
    std::string step; ///< its key
    std::string why;
    std::vector<int64_t> cells; ///< in cell order
};

/// The deviations of the plan of `results`; none for results written before plans recorded them.
std::vector<Deviation> collect_deviations(const ResultsDir& results);

/// The report's "Where this run departs from the paper" section, when there is a deviation: one
/// item per step, with the cells it ran in (or "every cell").
void add_deviations_section(const std::vector<Deviation>& deviations, const ResultsDir& results,
                            const std::function<std::string(int64_t)>& cell_label, Document& doc);

} // namespace pglab::lab::report
