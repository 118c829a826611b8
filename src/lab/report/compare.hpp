// `pglab compare`: two series of one results directory (server = pg16 vs pg17) or two results
// directories, cell by cell: ratio and difference of the means with 95% intervals (Welch), the
// p-value, and a verdict in words.
#pragma once

#include "lab/experiment/cell_selector.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/results.hpp"
#include "lab/report/statistics.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pglab::lab::report {

/// Matrix values a side's cells must have (experiment::parse_cell_selector).
using Selector = experiment::CellSelector;

using experiment::cell_matches;

/// One side of a comparison.
struct CompareSide {
    const ResultsDir* results = nullptr;
    Selector selector;
    std::string name; ///< for verdicts ("pg17"); derived from the selector or the directory
};

struct CompareOptions {
    std::vector<std::string> metrics; ///< metric ids; empty: each step's headline metrics
    std::vector<std::string> steps;   ///< step keys; empty: every step
    double alpha = 0.05;              ///< significance level of the verdicts
};

/// One cell and metric compared.
struct ComparisonRow {
    std::string step;
    MetricInfo metric;
    std::string cell; ///< the values both sides share ("clients=8"), "all runs" when none
    Summary a;
    Summary b;
    /// Each side's typical value, the one the ratio is of: the geometric mean when every run of
    /// both is positive (`geometric`), else the mean.
    double typical_a = 0;
    double typical_b = 0;
    bool geometric = false;
    /// Welch of b against a (ratio = typical_b / typical_a), or, for two cells of one plan run in
    /// rounds, the paired test of their runs round by round (`welch_ba->paired`), as the report
    /// judges a claim's ratio.
    std::optional<WelchResult> welch_ba;
    std::size_t rounds = 0; ///< the rounds the paired test read; 0 when unpaired
    bool significant = false;
    /// How much worse B is than A, in percent (times: B/A − 1, rates: 1 − B/A); negative when B
    /// is better; only for metrics with a direction.
    std::optional<double> slowdown_pct;
    std::string verdict;
};

struct Comparison {
    std::string name_a;
    std::string name_b;
    /// What differs between the sides besides the figures (side_facts.hpp): pglab, machine,
    /// form, server versions and settings, bench arguments and durations; empty when nothing.
    std::vector<std::string> differences;
    std::vector<ComparisonRow> rows;
    std::vector<std::string> notes; ///< cells without a partner, metrics missing on one side
};

/// Pairs the cells of `a` and `b` (equal values on every variable that no selector names) and
/// compares each chosen metric, after naming what differs between the sides. Two cells of one
/// plan run in rounds are compared round by round (paired_test()), others by Welch's test.
/// Error when no cell pairs up.
Result<Comparison> compare(const CompareSide& a, const CompareSide& b,
                           const CompareOptions& options);

/// The verdict sentence for a row ("pg17 is 5.7x faster (95% CI 5.2–6.1x)").
std::string verdict_text(const ComparisonRow& row, const std::string& name_a,
                         const std::string& name_b);

/// A fixed-width text table for a terminal.
std::string comparison_text(const Comparison& c);

/// The same as a Markdown table.
std::string comparison_markdown(const Comparison& c);

/// The same as JSON (`pglab.compare/1`).
std::string comparison_json(const Comparison& c);

/// Rows whose slowdown is significant and larger than `pct` percent.
std::vector<const ComparisonRow*> slower_than(const Comparison& c, double pct);

} // namespace pglab::lab::report
