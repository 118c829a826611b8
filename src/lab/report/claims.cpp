// Claims judged by lab/judge and worded by claim_words.cpp.
#include "lab/report/claims.hpp"

#include "lab/judge/claim_judge.hpp"
#include "lab/report/claim_words.hpp"

#include <utility>

namespace pglab::lab::report {

std::vector<ClaimResult> evaluate_claims(const std::vector<experiment::Claim>& claims,
                                         const ResultsDir& results,
                                         const std::vector<StepData>& steps) {
    std::vector<ClaimResult> out;
    for (judge::ClaimJudgement& j : judge::judge_claims(claims, results)) {
        out.push_back(ClaimResult{std::move(j)});
    }
    word_claims(out, steps);
    return out;
}

} // namespace pglab::lab::report
