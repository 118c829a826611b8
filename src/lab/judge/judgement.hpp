// lab/judge: what the runs say of a claim, as values. A judgement holds no words: its verdict,
// the measured figure and its intervals, the cells and runs it rests on, and how it was judged.
// The report words it (lab/report); `pglab run`'s rounds and `report --recheck` compare its
// values. The area grows between lab/store and lab/report: its statistics (statistics.hpp) and
// the rules that decide a verdict (verdict_rules.hpp) are here (issue 63).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::judge {

/// A closed interval [low, high]. For a ratio whose denominator is not clearly non-zero the
/// Fieller interval is unbounded: `bounded` is then false and low/high are meaningless.
struct Interval {
    double low = 0;
    double high = 0;
    bool bounded = true;

    bool operator==(const Interval&) const = default;
};

/// agrees: what was measured lies within what the claim allows (its 90% interval does, or its
/// exact value); differs: it lies wholly outside (its 95% interval does, or its exact value);
/// inconclusive: the runs cannot tell; untestable: it cannot be measured here.
enum class Verdict : std::uint8_t { agrees, differs, inconclusive, untestable };

/// Whether `v` decides the claim one way or the other.
inline bool is_decided(Verdict v) {
    return v == Verdict::agrees || v == Verdict::differs;
}

/// How the figure was read from the runs.
enum class Basis : std::uint8_t {
    none,        ///< no single figure (untestable, a missing cell; a shape judges its levels)
    exact,       ///< a count the runs reproduce exactly: its value decides
    independent, ///< each cell's runs as an independent sample
    paired,      ///< one run of each cell per round, judged round by round
};

/// What more runs would do for a judgement the runs cannot decide yet.
enum class MoreRuns : std::uint8_t {
    unknown,          ///< not said (decided, untestable, or nothing to go on)
    give_an_interval, ///< too few runs for an interval: more would give one
    likely_decide,    ///< about `more_runs_needed` more of each cell (or level) likely would
    would_not_decide, ///< even k_most_extra_runs more likely would not
};

/// A verdict read at another number of runs than the one a judgement stands on.
struct Reading {
    Verdict verdict = Verdict::inconclusive;
    std::size_t runs = 0;

    bool operator==(const Reading&) const = default;
};

/// Why a claim has no figure to judge, or one no number of such runs would decide: a value, which
/// the report words (claim_words.cpp). The strings are the experiment's own names (a selector,
/// a cell's label, a step), never sentences.
struct Unjudged {
    enum class Why : std::uint8_t {
        declared,          ///< the claim says it cannot be tested here: `subject` is its reason
        no_step,           ///< step `subject` has no results
        no_metric,         ///< step `subject` recorded no `metric`
        no_cell,           ///< no cell of the run is `subject`
        several_cells,     ///< `subject` names `count` cells, not one
        no_runs,           ///< the cell labelled `subject` has no measured run
        no_cell_at,        ///< no cell is `subject` at `over` = `at`
        several_cells_at,  ///< `subject` names more than one cell at `over` = `at`
        too_few_levels,    ///< fewer than `count` cells along `over`
        over_zero,         ///< `metric` is 0 in every run of `subject`, `figure` in `other`
        log_of_zero,       ///< a ratio of ratios' cell has a run at 0 or below
        one_run_spread,    ///< a spread of cells with one run each
        constant_baseline, ///< the runs of `subject` do not vary: no ratio of spreads
    };
    Why why = Why::declared;
    std::string subject{};
    std::string metric{};
    std::string other{};
    std::string over{};
    std::string at{};
    double figure = 0;
    std::size_t count = 0;

    bool operator==(const Unjudged&) const = default;
};

/// One claim judged.
struct Judgement {
    Verdict verdict = Verdict::untestable;
    /// The figure judged (a ratio of typical values, or a typical value); none for shapes and
    /// untestable claims.
    std::optional<double> value;
    std::optional<Interval> ci95;    ///< its 95% interval, when there is one
    std::optional<Interval> ci90;    ///< its 90% interval (the one "agrees" needs inside)
    std::vector<std::int64_t> cells; ///< the cells whose runs it read (a ratio's two)
    /// Why it has no figure to judge (then untestable, or inconclusive where more runs of the
    /// kind it has would not help).
    std::optional<Unjudged> unjudged;
    std::size_t runs = 0; ///< the fewest measured runs of those cells (or rounds)
    Basis basis = Basis::none;
    /// The look its runs are of (1-based), of how many the plan allows: a `repeat` until decided
    /// looks after every round (sequential.hpp); any other plan once.
    std::size_t look = 1;
    std::size_t looks = 1;
    MoreRuns more_runs = MoreRuns::unknown;
    std::size_t more_runs_needed = 0; ///< likely_decide: how many more runs of each
    /// Decided at an earlier look than all its runs are (its verdict is that look's): what all
    /// the runs give.
    std::optional<Reading> all_runs;
    /// A count declared exact, judged on all its runs, that fewer runs decided first: what they
    /// gave.
    std::optional<Reading> fewer_runs;

    bool operator==(const Judgement&) const = default;
};

} // namespace pglab::lab::judge
