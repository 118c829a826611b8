// lab/judge: what the runs say of a claim, as values. A judgement holds no words: its verdict,
// the measured figure and its intervals, the cells and runs it rests on, and how it was judged.
// The report words it (lab/report); `pglab run`'s rounds and `report --recheck` compare its
// values. The area grows between lab/store and lab/report: its statistics (statistics.hpp) and
// the rules that decide a verdict (verdict_rules.hpp) are here (issue 63).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
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

/// How the figure was read from the runs.
enum class Basis : std::uint8_t {
    none,        ///< no single figure (untestable, a missing cell; a shape judges its levels)
    exact,       ///< a count the runs reproduce exactly: its value decides
    independent, ///< each cell's runs as an independent sample
    paired,      ///< one run of each cell per round, judged round by round
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
    std::size_t runs = 0;            ///< the fewest measured runs of those cells (or rounds)
    Basis basis = Basis::none;
    /// The look its runs are of (1-based), of how many the plan allows: a `repeat` until decided
    /// looks after every round (sequential.hpp); any other plan once.
    std::size_t look = 1;
    std::size_t looks = 1;

    bool operator==(const Judgement&) const = default;
};

} // namespace pglab::lab::judge
