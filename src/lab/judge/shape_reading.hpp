// lab/judge: a shape claim read as the ratios it is made of, as values (the report words them:
// claim_words.cpp). A shape agrees when every ratio it rests on agrees, differs when one differs,
// and is open otherwise; "rises, then levels off" is read at each level it may level off at.
#pragma once

#include "lab/judge/judgement.hpp"
#include "lab/judge/verdict_rules.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pglab::lab::judge {

/// One ratio of a shape, judged: level `a` over level `b` along the claim's `over`.
struct ShapeRatio {
    enum class Problem : std::uint8_t {
        none,
        zero_denominator, ///< level `b` is 0: no ratio
        log_of_zero,      ///< along a ratio: a run at 0 or below, which the log scale cannot read
    };
    std::string a{};
    std::string b{};
    Problem problem = Problem::none;
    double value = 0;
    std::optional<Interval> ci95{}; ///< shown beside it; none for an exact figure
    std::optional<Decision> decision{};
    /// inconclusive: the runs of each level that would likely decide it; none when even
    /// k_most_extra_runs more would not.
    std::optional<std::size_t> extra{};

    Verdict verdict() const { return decision ? decision->verdict : Verdict::inconclusive; }
};

/// The ratios a shape's verdict rests on, taken together.
struct ShapeOutcome {
    std::vector<ShapeRatio> differs{};
    std::vector<ShapeRatio> open{};
    std::optional<ShapeRatio> agreed{}; ///< the first that agreed
    std::size_t tests = 0;              ///< how many ratios it rests on
    std::size_t most_extra = 0;         ///< runs of each level that would decide the open ones
    bool undecidable = false;           ///< an open one even k_most_extra_runs would not decide

    Verdict verdict() const {
        return !differs.empty() ? Verdict::differs
               : !open.empty()  ? Verdict::inconclusive
                                : Verdict::agrees;
    }
};

/// A shape claim read: the ratios shown after its levels and why its verdict is what it is.
struct ShapeReading {
    std::string over{};              ///< the matrix variable the levels lie along
    bool ratio_levels = false;       ///< each level is a ratio (`ratio_along`), not a cell's figure
    bool over_first = false;         ///< the ratios shown are each over the first (flat)
    std::vector<ShapeRatio> shown{}; ///< else each over the one before
    ShapeOutcome outcome{};          ///< the ratios the verdict rests on (a knee's, for levels_off)
    /// Rises, then levels off.
    bool levels_off = false;
    std::optional<std::string> knee{}; ///< agrees: the level it levels off at
    std::size_t steps_up = 0;          ///< agrees: the steps up to the knee
    std::size_t levels_after = 0;      ///< agrees: the levels after it
    double at_least = 0;               ///< what each step up had to be at least
    Band band{};                       ///< what each level after the knee had to be within
    /// differs: at each level it might level off at, the first ratio that differs.
    std::vector<std::pair<std::string, ShapeRatio>> not_at{};
    std::optional<std::string> likeliest{}; ///< open: the knee with the fewest open ratios
};

} // namespace pglab::lab::judge
