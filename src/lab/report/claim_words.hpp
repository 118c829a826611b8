// The words of judged claims (see claim_words.cpp).
#pragma once

#include "lab/report/claims.hpp"
#include "lab/report/document.hpp"
#include "lab/report/metrics.hpp"

#include <string>
#include <vector>

namespace pglab::lab::report {

/// The words of each judged claim: its paper column, and to its `why` (the case of the rule that
/// applied) what more runs would do and when it was decided; the evidence its explanation rests
/// on, from `steps`.
void word_claims(std::vector<ClaimResult>& claims, const std::vector<StepData>& steps);

/// " ms", " MB", " tps" after a figure of `m`; "" for a count.
std::string unit_suffix(const MetricInfo& m);

/// "look 3 of at most 13, with 5 runs of each cell": the look of a `repeat` until decided a
/// judgement was read at (lab/judge/sequential.hpp).
std::string look_words(const judge::Judgement& j);

/// "decided at look 3 of at most 13, with 5 runs of each cell", "undecided at …"; "" for a
/// judgement of a single look or of a declared count.
std::string look_summary(const judge::Judgement& j);

/// "agrees", "differs", "inconclusive", "untestable": the verdict as exports name it.
const char* verdict_name(Verdict v);

/// "agrees: ...", "differs: ...", "inconclusive: ...", "cannot be tested here: ...": the verdict
/// and the case that applied.
std::string verdict_text(const ClaimResult& r);

/// The report's first table: claim, paper, measured (95% CI), verdict.
Table claims_table(const std::vector<ClaimResult>& results);

} // namespace pglab::lab::report
