// lab/judge: ClaimJudge and judge_claims (claim_judge.hpp).
#include "lab/judge/claim_judge.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <utility>

namespace pglab::lab::judge {

ClaimJudge::ClaimJudge(std::vector<experiment::Claim> claims, store::ResultsDir results)
    : m_claims(std::move(claims)), m_results(std::move(results)),
      m_figures(m_results.plan, /*cores=*/0), m_first(m_claims.size()) {
    std::vector<store::FinishedRun> runs = std::move(m_results.runs);
    m_results.runs.clear();
    for (store::FinishedRun& run : runs) {
        add(std::move(run));
    }
}

void ClaimJudge::add(store::FinishedRun run) {
    m_figures.add(run.record);
    m_runs_ms += run.record.timings.total_ms;
    m_results.runs.push_back(std::move(run));
}

std::vector<ClaimJudgement> ClaimJudge::judge_runs_so_far() const {
    const std::vector<StepData> steps = m_figures.steps();
    std::vector<ClaimJudgement> out;
    out.reserve(m_claims.size());
    for (const experiment::Claim& c : m_claims) {
        out.push_back(judge_claim(c, m_results, steps));
    }
    return out;
}

void ClaimJudge::look() {
    m_last = judge_runs_so_far();
    for (std::size_t i = 0; i < m_last.size(); ++i) {
        if (!m_first[i] && m_claims[i].untestable.empty()
            && is_decided(m_last[i].judgement.verdict)) {
            m_first[i] = m_last[i];
        }
    }
}

std::vector<ClaimJudgement> ClaimJudge::with_first_looks(std::vector<ClaimJudgement> now) const {
    if (!m_results.plan || !m_results.plan->repeat_max) {
        return now;
    }
    for (std::size_t i = 0; i < now.size(); ++i) {
        // A look with as many runs as all of them is the judgement on all of them.
        if (!m_first[i] || m_first[i]->judgement.runs >= now[i].judgement.runs) {
            continue;
        }
        const Reading earlier{m_first[i]->judgement.verdict, m_first[i]->judgement.runs};
        if (m_first[i]->judgement.basis == Basis::exact) {
            now[i].judgement.fewer_runs = earlier;
            continue;
        }
        const Reading all{now[i].judgement.verdict, now[i].judgement.runs};
        now[i] = *m_first[i];
        now[i].judgement.all_runs = all;
    }
    return now;
}

std::vector<std::size_t> ClaimJudge::undecided_cells() const {
    std::set<std::size_t> cells;
    for (const ClaimJudgement& r : with_first_looks(m_last)) {
        if (r.judgement.verdict == Verdict::inconclusive) {
            for (const std::int64_t c : r.judgement.cells) {
                cells.insert(static_cast<std::size_t>(c));
            }
        }
    }
    return {cells.begin(), cells.end()};
}

std::vector<ClaimJudgement> ClaimJudge::judgements() const {
    return with_first_looks(judge_runs_so_far());
}

std::vector<ClaimJudgement> judge_claims(const std::vector<experiment::Claim>& claims,
                                         const store::ResultsDir& results) {
    store::ResultsDir plan_only = results; // the runs copied once, then given one by one
    std::vector<store::FinishedRun> runs = std::move(plan_only.runs);
    plan_only.runs.clear();
    ClaimJudge judge(claims, std::move(plan_only));
    // Round by round, as they ran (a round's runs follow the earlier rounds' in the file).
    std::stable_sort(runs.begin(), runs.end(),
                     [](const store::FinishedRun& a, const store::FinishedRun& b) {
                         return a.record.round < b.record.round;
                     });
    const bool looked = results.plan && results.plan->repeat && results.plan->repeat_max;
    const auto first_look = looked ? static_cast<std::uint32_t>(*results.plan->repeat) : 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::uint32_t round = runs[i].record.round;
        judge.add(std::move(runs[i]));
        const bool round_ends = i + 1 < runs.size() && runs[i + 1].record.round != round;
        if (looked && round_ends && round >= first_look) {
            judge.look();
        }
    }
    return judge.judgements();
}

} // namespace pglab::lab::judge
