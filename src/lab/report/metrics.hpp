// The report's names for the steps' figures that lab/judge collects (lab/judge/step_figures.hpp),
// which its tables, charts and exports draw: one list, so that no report file repeats it.
#pragma once

#include "lab/judge/step_figures.hpp"
#include "lab/report/results.hpp"
#include "lab/report/statistics.hpp"

namespace pglab::lab::report {

using judge::collect_steps;
using judge::Direction;
using judge::find_metric;
using judge::MetricInfo;
using judge::MetricValues;
using judge::RunFigure;
using judge::StepData;
using judge::summary_in;
using judge::values_of;

} // namespace pglab::lab::report
