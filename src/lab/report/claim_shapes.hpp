// Shape claims: the typical values of cells along a matrix variable judged as the ratios they
// are made of (docs/experiments.md, "Claims"): flat, increasing, decreasing, and rising then
// levelling off.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/report/claims.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/results.hpp"

namespace pglab::lab::report {

/// Judges the shape claim `c` on the runs of `m`, filling `r`.
void evaluate_shape(const experiment::Claim& c, const ResultsDir& results, const MetricValues& m,
                    ClaimResult& r);

} // namespace pglab::lab::report
