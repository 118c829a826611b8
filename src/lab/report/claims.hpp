// Claims of an experiment (lab/experiment's `[[claims]]`) set beside what was measured: for each,
// the paper's figure, the measured one with its 95% interval, and a verdict in words. The report
// opens with this table.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/judge/judgement.hpp"
#include "lab/judge/shape_reading.hpp"
#include "lab/judge/verdict_rules.hpp"
#include "lab/report/document.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/results.hpp"
#include "lab/report/statistics.hpp"
#include "lab/report/verdict_words.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pglab::lab::report {

/// What a single figure was computed from, as values: claim_words says it in the measured
/// column ("0.830 (95% CI 0.785 – 0.878) = 1335.5 / 1608.6 ms, geometric means of 3 rounds,
/// judged in pairs").
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

/// One claim evaluated: its judgement (values: lab/judge), and the report's words for it.
struct ClaimResult {
    experiment::Claim claim;
    judge::Judgement judgement;
    /// The rule's decision on a single figure (a ratio, a value, a ratio of ratios, a spread):
    /// which part of what the claim allows gave the verdict, on what evidence; none for a shape
    /// (its ratios' lines are in `why`) and for a claim that could not be judged.
    std::optional<judge::Decision> decision;
    FigureOrigin origin;  ///< what that figure was computed from
    std::string paper;    ///< the paper's figure or shape as shown
    std::string measured; ///< the measured figure with its 95% interval; "" when untestable
    /// The case of the rule that applied (the words of `decision`, or a shape's lines), what more
    /// runs would do and when it was decided; or why it cannot be judged or tested.
    std::string why;
    /// A shape: each value of `over` read (as text) and its typical value (the geometric mean of
    /// positive runs, else the mean), in order.
    std::vector<std::pair<std::string, double>> series;
    /// A shape: its ratios and why its verdict is what it is (claim_words.cpp words them).
    std::optional<judge::ShapeReading> shape;
    /// The claim's `evidence` metric in the cells it read: "wal.fpi 24019.0 / 3400.0 (means of
    /// the claim's cells)"; "" without evidence, or when the step did not record it.
    std::string evidence;
};

/// Evaluates `claims` against the measured steps of `results`: their judgements, then their words
/// (claim_words.hpp).
std::vector<ClaimResult> evaluate_claims(const std::vector<experiment::Claim>& claims,
                                         const ResultsDir& results,
                                         const std::vector<StepData>& steps);

/// The cells whose runs the undecided claims of `results` read (by cell index), for a `repeat`
/// until decided to run again; empty when each claim with a figure is decided or cannot be
/// tested.
std::vector<std::size_t> cells_of_undecided_claims(const ResultsDir& results);

/// The claims and question of the experiment recorded in `results` (experiment.toml), or none
/// when it has none or cannot be parsed (then `problem` says why).
struct ExperimentClaims {
    std::string question;
    std::vector<experiment::Claim> claims;
    std::string problem;
};

ExperimentClaims read_claims(const ResultsDir& results);

} // namespace pglab::lab::report
