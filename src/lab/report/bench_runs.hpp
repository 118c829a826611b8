// lab/report: what a bench step ran in each cell: the arguments pglab bench was given (the
// matrix's values and the step's own options) and the duration and transactions it measured, so
// that a report reader sees how long a bench ran and with what, not only its tps.
#pragma once

#include "lab/report/document.hpp"
#include "lab/report/results.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pglab::lab::report {

/// A bench step in one cell, over its measured runs.
struct BenchRan {
    std::int64_t cell = 0;
    /// The arguments of its first measured run; none recorded: empty.
    std::vector<std::string> arguments;
    bool arguments_vary = false;     ///< a later run of the cell was given others
    std::vector<double> durations_s; ///< each run's measured period
    std::vector<double> transactions;
    std::vector<std::int64_t> runs; ///< the runs, in file order
};

/// The bench step `step_key` in each cell with a measured run of it (warm-ups, failed runs and
/// runs whose document has no totals left out), in cell order.
std::vector<BenchRan> bench_ran(const ResultsDir& results, const std::string& step_key);

/// A bench shorter than this measures mostly its start and its end.
inline constexpr double k_short_bench_s = 1.0;

/// "cell", "arguments", "measured s", "transactions": one row per cell, the figures as the
/// median of its runs and their range; `label` names a cell.
Table bench_ran_table(const std::vector<BenchRan>& ran,
                      const std::function<std::string(std::int64_t)>& label);

/// One warning per cell whose bench measured less than k_short_bench_s in a run.
std::vector<std::string>
short_bench_warnings(const std::string& step_key, const std::vector<BenchRan>& ran,
                     const std::function<std::string(std::int64_t)>& label);

} // namespace pglab::lab::report
