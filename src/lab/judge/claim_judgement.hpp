// lab/judge: the claims of an experiment (lab/experiment's `[[claims]]`) judged on the steps'
// figures, as values: for each, its judgement (judgement.hpp), the rule's decision, what its
// figure was computed from and, for a shape, its reading. The report words them
// (lab/report/claim_words.hpp).
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/judge/judgement.hpp"
#include "lab/judge/shape_reading.hpp"
#include "lab/judge/step_figures.hpp"
#include "lab/judge/verdict_rules.hpp"
#include "lab/store/results_dir.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pglab::lab::judge {

/// What a single figure was computed from, as values: the report says it in the measured column
/// ("0.830 (95% CI 0.785 – 0.878) = 1335.5 / 1608.6 ms, geometric means of 3 rounds, judged in
/// pairs").
struct FigureOrigin {
    enum class Kind : std::uint8_t { none, value, ratio, ratio_of_ratios, spread_ratio, shape };
    Kind kind = Kind::none;
    MetricInfo metric{}; ///< its unit
    /// How the cells' runs were read into their figures: geometric means, means of the log-odds,
    /// else means (Sample's log and logit; a quotient's when both cells are read so).
    bool log = false;
    bool logit = false;
    /// The figures are means of several runs (a value: more than one; a quotient: runs that
    /// differed, not one value repeated).
    bool several = false;
    double numerator = 0;   ///< a ratio's figures (of the rounds' runs when in rounds); a ratio
    double denominator = 0; ///< of ratios' two ratios; a spread ratio's two spreads
    std::size_t rounds = 0; ///< judged in pairs, or round by round, over this many rounds
    std::string scale{};    ///< a spread ratio: the scale its spreads are on ("sd of the logs")
    std::vector<std::vector<double>> runs{}; ///< each cell's runs, shown when there are too few
};

/// One claim judged: its judgement and what it rests on, with no words in it.
struct ClaimJudgement {
    experiment::Claim claim;
    Judgement judgement;
    /// The rule's decision on a single figure (a ratio, a value, a ratio of ratios, a spread):
    /// which part of what the claim allows gave the verdict, on what evidence; none for a shape
    /// (its ratios are in `shape`) and for a claim that could not be judged.
    std::optional<Decision> decision;
    FigureOrigin origin; ///< what that figure was computed from
    /// A shape: each value of `over` read (as text) and its typical value (the geometric mean of
    /// positive runs, else the mean), in order.
    std::vector<std::pair<std::string, double>> series;
    /// A shape: its ratios and why its verdict is what it is.
    std::optional<ShapeReading> shape;
};

/// Judges claim `c` on the steps' figures `steps` of the runs of `results` as they are (one look:
/// claim_judge.hpp judges at each look of a `repeat` until decided).
ClaimJudgement judge_claim(const experiment::Claim& c, const store::ResultsDir& results,
                           const std::vector<StepData>& steps);

/// The claims and question of the experiment recorded in `results` (plan.json, else
/// experiment.toml), or none when it has none or cannot be parsed (then `problem` says why).
struct ExperimentClaims {
    std::string question;
    std::vector<experiment::Claim> claims;
    std::string problem;
};

ExperimentClaims read_claims(const store::ResultsDir& results);

} // namespace pglab::lab::judge
