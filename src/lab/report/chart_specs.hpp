// Chart specifications of a report: the metric against the swept variable (lines), categorical
// comparisons (bars) and latency percentile curves, from the cells' values. No drawing here.
#pragma once

#include "lab/report/cells.hpp"
#include "lab/report/chart.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/results.hpp"

#include <string>
#include <vector>

namespace pglab::lab::report {

/// The label of a cell in a chart: the bare value when one variable makes it ("pg17"), else
/// NAME=VALUE pairs as cell_label() writes them.
std::string chart_label(const Cell& cell, const std::vector<std::string>& names);

/// Mean ± sd of `m` against `dims.x` (which must be set), one series per combination of
/// `dims.series`; a logarithmic x axis when x spans 16x or more.
ChartSpec line_chart(const ResultsDir& results, const Dimensions& dims, const MetricValues& m);

/// Mean ± sd of `m` per category (the varying variables but one), one bar per value of the
/// series variable ("server" when it varies, else the last varying variable).
ChartSpec bar_chart(const ResultsDir& results, const Dimensions& dims, const MetricValues& m);

/// Latency against percentile from the merged histograms of `step`, one line per cell (at
/// most 12).
ChartSpec percentile_chart(const ResultsDir& results, const Dimensions& dims, const StepData& step);

} // namespace pglab::lab::report
