// The report's names for the statistics of lab/judge (lab/judge/statistics.hpp) that its tables,
// comparisons and warnings show: one list, so that no report file repeats it. The report computes
// no statistic of its own.
#pragma once

#include "lab/judge/statistics.hpp"

namespace pglab::lab::report {

using judge::Factor;
using judge::Interval;
using judge::k_min_runs_for_interval;
using judge::mean;
using judge::median;
using judge::paired_test;
using judge::product_interval;
using judge::product_of;
using judge::proportion_sample_of;
using judge::Sample;
using judge::sample_of;
using judge::spread_ratio;
using judge::spread_ratio_interval;
using judge::summarize;
using judge::Summary;
using judge::typical_interval;
using judge::typical_ratio;
using judge::typical_ratio_interval;
using judge::typical_value;
using judge::welch;
using judge::WelchResult;

} // namespace pglab::lab::report
