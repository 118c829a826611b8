// Runs that stand apart from the others of their cell, as hyperfine warns of them: a run beyond
// the others (a robust z-score), and a first run after a server start that is the slowest of its
// cell (cold caches). Pure functions: the report shows their warnings.
#pragma once

#include "lab/experiment/metric_catalogue.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/results.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace pglab::lab::report {

/// The fewest values a cell needs before one of them is called an outlier.
inline constexpr std::size_t k_min_values_for_outliers = 5;

/// Positions of the values whose modified z-score |0.6745 (x − median) / MAD| exceeds 3.5
/// (Iglewicz and Hoaglin, "How to detect and handle outliers", 1993). None under
/// k_min_values_for_outliers values, or when the MAD is 0 (most values identical).
std::vector<std::size_t> outlier_positions(std::span<const double> values);

/// Whether the value at `position` is slower than every other (larger for a time, smaller for a
/// rate) by more than the others' own range: a cold first run. False for fewer than 3 values and
/// for metrics that are not speeds (`direction` neutral).
bool slowest_by_far(std::span<const double> values, std::size_t position,
                    experiment::Direction direction);

/// The runs that came first on a freshly started server (a new cluster, or a restart).
std::set<int64_t> first_runs_after_start(const ResultsDir& results);

/// A measured step's headline metrics, as warnings: runs beyond the others of their cell, and
/// first runs after a server start (`first_runs`) that are by far the slowest of theirs; `label`
/// names a cell.
std::vector<std::string> outlier_warnings(const StepData& step, const std::set<int64_t>& first_runs,
                                          const std::function<std::string(int64_t)>& label);

} // namespace pglab::lab::report
