// lab/judge: the claims of one results directory judged look by look, as `pglab run` looks at
// them. Built once from the plan and the runs the directory holds, it grows by each run as it
// finishes (its figures read once: StepFigures); at each look of a `repeat` until decided it
// judges every claim on the runs so far and keeps the first look that decided it, whose
// boundaries hold for stopping there (sequential.hpp). `pglab run` asks it which cells to run
// again; the report and `--recheck` read its judgements.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/judge/claim_judgement.hpp"
#include "lab/judge/step_figures.hpp"
#include "lab/store/results_dir.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace pglab::lab::judge {

class ClaimJudge {
public:
    /// `results`: the plan, its cells and the runs so far (none for a new run; those a --resume
    /// finds), each added as add() would.
    ClaimJudge(std::vector<experiment::Claim> claims, store::ResultsDir results);

    /// A run that finished: its figures join the steps'.
    void add(store::FinishedRun run);

    /// A look: judges each claim on the runs so far, and keeps the first look that decided it.
    void look();

    /// The cells whose runs the claims still undecided at the last look read (by cell index); a
    /// claim an earlier look decided stays decided.
    std::vector<std::size_t> undecided_cells() const;

    /// The time the runs so far took, in ms (a `repeat` budget's measure).
    double runs_ms() const { return m_runs_ms; }

    /// Each claim judged on all the runs, as `pglab run` looked at it: a claim an earlier look
    /// decided keeps that look's verdict (later rounds ran for another claim's sake), with what
    /// all its runs give beside it; a count declared exact spends nothing on its looks (its value
    /// is a fact), so all its runs judge it, with what fewer gave first.
    std::vector<ClaimJudgement> judgements() const;

private:
    std::vector<ClaimJudgement> judge_runs_so_far() const;
    std::vector<ClaimJudgement> with_first_looks(std::vector<ClaimJudgement> now) const;

    std::vector<experiment::Claim> m_claims;
    store::ResultsDir m_results;
    StepFigures m_figures;
    double m_runs_ms = 0;
    std::vector<ClaimJudgement> m_last;                 ///< the last look's, on its runs
    std::vector<std::optional<ClaimJudgement>> m_first; ///< the first look that decided each
};

/// The claims of `results` judged as `pglab run` looked at them: its runs added round by round,
/// a look after each round a `repeat` until decided looked at (from the `repeat`-th on).
std::vector<ClaimJudgement> judge_claims(const std::vector<experiment::Claim>& claims,
                                         const store::ResultsDir& results);

} // namespace pglab::lab::judge
