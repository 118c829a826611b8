// The report reads the steps' figures that lab/judge collects (lab/judge/step_figures.hpp), by
// these names until its callers name them judge:: (issue 63: the judge grows between the store and
// the report, strangler-wise).
#pragma once

#include "lab/judge/step_figures.hpp"
#include "lab/report/results.hpp"
#include "lab/report/statistics.hpp"

namespace pglab::lab::report {

using judge::collect_steps;
using judge::Direction;
using judge::Disagreement;
using judge::find_metric;
using judge::MetricInfo;
using judge::MetricValues;
using judge::RunFigure;
using judge::RunSeries;
using judge::sample_in;
using judge::StepData;
using judge::summary_in;
using judge::values_of;

} // namespace pglab::lab::report
