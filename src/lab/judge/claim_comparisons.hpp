// Claims that compare comparisons: a ratio of ratios ("the gain depends on the index": (A/B) over
// (C/D)) and a ratio of spreads ("the plain scan varies more": how much A's runs vary over how
// much B's do), each with its interval and the verdict rules of verdict_rules.hpp.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/judge/claim_evidence.hpp"
#include "lab/judge/claim_judgement.hpp"
#include "lab/judge/step_figures.hpp"
#include "lab/store/results_dir.hpp"

namespace pglab::lab::judge {

/// Judges the ratio of ratios claim `c` on the runs of `m`, filling `r`.
void evaluate_ratio_of_ratios(const experiment::Claim& c, const store::ResultsDir& results,
                              const MetricValues& m, ClaimJudgement& r);

/// Judges the spread claim `c` on the runs of `m` in its two `cells`, filling `r`.
void evaluate_spread(const experiment::Claim& c, const store::ResultsDir& results,
                     const MetricValues& m, const CellPair& cells, ClaimJudgement& r);

} // namespace pglab::lab::judge
