// Claims that compare comparisons: a ratio of ratios ("the gain depends on the index": (A/B) over
// (C/D)) and a ratio of spreads ("the plain scan varies more": how much A's runs vary over how
// much B's do), each with its interval and the verdict rules of verdict_rules.hpp.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/report/claims.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/results.hpp"

namespace pglab::lab::report {

/// Judges the ratio of ratios claim `c` on the runs of `m`, filling `r`.
void evaluate_ratio_of_ratios(const experiment::Claim& c, const ResultsDir& results,
                              const MetricValues& m, ClaimResult& r);

/// Judges the spread claim `c` on the runs of `m`, filling `r`.
void evaluate_spread(const experiment::Claim& c, const ResultsDir& results, const MetricValues& m,
                     ClaimResult& r);

} // namespace pglab::lab::report
