// The shape of a results directory's matrix: which variables vary, which one is the swept x of
// charts and which ones split series, and short cell labels made of the varying variables only.
#pragma once

#include "lab/report/results.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::report {

struct Dimensions {
    std::vector<std::string> varying; ///< variables with more than one value, matrix order
    std::optional<std::string> x;     ///< numeric varying variable for line charts
    std::vector<std::string> series;  ///< the other varying variables
};

/// "clients" when it varies, else the first numeric variable that varies; series = the rest.
Dimensions analyze_dimensions(const ResultsDir& results);

/// "name=value name=value" over `names` (in that order); "all runs" when `names` is empty.
std::string cell_label(const Cell& cell, const std::vector<std::string>& names);

/// The cell's value of `name` as a number, when it is one.
std::optional<double> numeric_value(const Cell& cell, const std::string& name);

} // namespace pglab::lab::report
