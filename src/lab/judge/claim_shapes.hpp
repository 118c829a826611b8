// Shape claims: the typical values of cells along a matrix variable judged as the ratios they
// are made of (docs/experiments.md, "Claims"): flat, increasing, decreasing, and rising then
// levelling off.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/judge/claim_judgement.hpp"
#include "lab/judge/step_figures.hpp"
#include "lab/store/results_dir.hpp"

namespace pglab::lab::judge {

/// Judges the shape claim `c` on the runs of `m`, filling `r`.
void evaluate_shape(const experiment::Claim& c, const store::ResultsDir& results,
                    const MetricValues& m, ClaimJudgement& r);

} // namespace pglab::lab::judge
