// The report reads its figures with lab/judge's statistics (lab/judge/statistics.hpp), by these
// names until its callers name them judge:: (issue 63: the judge grows between the store and the
// report, strangler-wise).
#pragma once

#include "lab/judge/statistics.hpp"

namespace pglab::lab::report {

using judge::Factor;
using judge::Interval;
using judge::k_min_runs_for_interval;
using judge::mean;
using judge::mean_interval;
using judge::median;
using judge::Moments;
using judge::moments_of;
using judge::paired_test;
using judge::product_interval;
using judge::product_of;
using judge::proportion_sample_of;
using judge::ratio_interval;
using judge::Sample;
using judge::sample_of;
using judge::sample_stddev;
using judge::Scale;
using judge::spread_ratio;
using judge::spread_ratio_interval;
using judge::Spreads;
using judge::spreads_of;
using judge::student_t_cdf;
using judge::student_t_quantile;
using judge::summarize;
using judge::Summary;
using judge::typical_interval;
using judge::typical_ratio;
using judge::typical_ratio_interval;
using judge::typical_value;
using judge::welch;
using judge::WelchResult;
using judge::with_more_values;

} // namespace pglab::lab::report
