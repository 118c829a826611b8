// Claims of an experiment (lab/experiment's `[[claims]]`) set beside what was measured: lab/judge
// judges each (claim_judgement.hpp), the report words it: the paper's figure, the measured one
// with its 95% interval, and a verdict in words. The report opens with this table.
#pragma once

#include "lab/judge/claim_judgement.hpp"
#include "lab/report/document.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/results.hpp"
#include "lab/report/statistics.hpp"
#include "lab/report/verdict_words.hpp"

#include <string>
#include <vector>

namespace pglab::lab::report {

using judge::ExperimentClaims;
using judge::FigureOrigin;
using judge::read_claims;

/// One claim judged (its values: lab/judge), and the report's words for it.
struct ClaimResult : judge::ClaimJudgement {
    std::string paper{};    ///< the paper's figure or shape as shown
    std::string measured{}; ///< the measured figure with its 95% interval; "" when untestable
    /// The case of the rule that applied (the words of `decision`, or a shape's lines), what more
    /// runs would do and when it was decided; or why it cannot be judged or tested.
    std::string why{};
    /// The claim's `evidence` metric in the cells it read: "wal.fpi 24019.0 / 3400.0 (means of
    /// the claim's cells)"; "" without evidence, or when the step did not record it.
    std::string evidence{};
};

/// Evaluates `claims` against the measured steps of `results`: their judgements (lab/judge), then
/// their words (claim_words.hpp).
std::vector<ClaimResult> evaluate_claims(const std::vector<experiment::Claim>& claims,
                                         const ResultsDir& results,
                                         const std::vector<StepData>& steps);

} // namespace pglab::lab::report
