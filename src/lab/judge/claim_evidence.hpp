// What each kind of claim is judged with (claim_judgement.cpp, claim_shapes.cpp,
// claim_comparisons.cpp): a selector's cell and its runs, the looks of the plan, and the verdict
// with how many more runs would likely decide it. Internal to the judge's claims, but for the
// pairing of runs by round, which `pglab compare` uses too (a comparison judges two cells as a
// claim does).
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/judge/claim_judgement.hpp"
#include "lab/judge/statistics.hpp"
#include "lab/judge/step_figures.hpp"
#include "lab/judge/verdict_rules.hpp"
#include "lab/store/results_dir.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::judge {

/// Values of `metric` in the one cell that `selector` names; why not otherwise.
struct CellValues {
    const store::Cell* cell = nullptr;
    std::vector<double> values;
    Sample sample; ///< `values` as intervals read them (sample_in())
    std::optional<Unjudged> problem;
};

CellValues values_of(const experiment::CellSelector& selector, const store::ResultsDir& results,
                     const MetricValues& metric);

/// The two cells of a claim that compares `c.cell` with `c.baseline` (a ratio, a spread), read once
/// for either kind: `r.judgement`'s cells and runs are set; none, with the problem in
/// `r.judgement.unjudged`, when one cannot be read.
struct CellPair {
    CellValues a; ///< the claim's cell
    CellValues b; ///< its baseline
};

std::optional<CellPair> read_cell_pair(const experiment::Claim& c, const store::ResultsDir& results,
                                       const MetricValues& m, ClaimJudgement& r);

/// The runs of two cells paired by the round they ran in: each round in which both cells have one
/// measured run, in round order. Empty unless the plan ran in rounds (order "paired" or
/// "interleaved", and the rounds a `repeat` until decided added).
struct PairedRuns {
    std::vector<double> a;
    std::vector<double> b;
};

PairedRuns paired_runs(const store::ResultsDir& results, const MetricValues& m, std::int64_t cell_a,
                       std::int64_t cell_b);

/// The same for any number of cells: one row per round in which every cell of `cells` has one
/// measured run, their values in the order of `cells`, in round order.
std::vector<std::vector<double>> runs_by_round(const store::ResultsDir& results,
                                               const MetricValues& m,
                                               const std::vector<std::int64_t>& cells);

/// Marks `e` exact when the claim declares the metric so (a count the runs reproduce to the
/// unit: one run decides). Runs that merely came out equal are not exact: their interval is the
/// point they share, from 3 runs on, like any other.
void mark_exact(const experiment::Claim& c, Evidence& e);

/// The evidence of `a` over `b` for claim `c`; a declared exact figure is the ratio of the counts
/// as counted, not through logarithms.
Evidence claim_ratio_evidence(const experiment::Claim& c, const Sample& a, const Sample& b,
                              const LookPlan& plan);

/// The looks the plan of `results` judges its claims at: one after each round of a `repeat`
/// until decided, else a single one (lab/judge/sequential.hpp).
LookPlan look_plan_of(const store::ResultsDir& results);

/// The figure of `e` and its intervals into the judgement, read as `basis` (exact when `e` is).
void hold(const Evidence& e, Basis basis, Judgement& j);

/// The verdict of the figure in `e` against the claim (verdict_rules.hpp); when the runs cannot
/// tell yet, how many more would likely decide it (`more_runs` gives the evidence after that
/// many more runs of each cell).
void conclude(const experiment::Claim& c, const Evidence& e,
              const std::function<Evidence(size_t)>& more_runs, ClaimJudgement& r);

} // namespace pglab::lab::judge
