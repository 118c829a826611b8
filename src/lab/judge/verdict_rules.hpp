// The verdict of a claim with a figure, as an equivalence test (two one-sided tests, as in
// bioequivalence): a measured figure agrees with the paper only when its 90% interval lies inside
// what the paper allows, differs only when its 95% interval lies wholly outside, and is
// inconclusive otherwise. A point estimate inside the band proves nothing on its own. Pure
// functions over intervals, and a decision with no words in it: the report says which case
// applied (lab/report/verdict_words.hpp).
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/judge/judgement.hpp"
#include "lab/judge/sequential.hpp"
#include "lab/judge/statistics.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace pglab::lab::judge {

/// The paper's figure and its tolerance: relative to the figure, or absolute around 0.
struct Band {
    double centre = 0;
    double tolerance = 0;

    /// centre ± tolerance·|centre|, or ± tolerance around 0.
    Interval bounds() const;
};

/// What a claim allows of the measured figure: the paper's band, or bounds, or both.
struct Allowed {
    std::optional<Band> band;
    std::optional<double> at_least;
    std::optional<double> at_most;
};

Allowed allowed_by(const experiment::Claim& claim);

/// The measured figure as the rules read it.
struct Evidence {
    double value = 0;
    /// The claim declares the quantity exact (a count the runs reproduce to the unit): its value
    /// is its interval, and one run decides.
    bool exact = false;
    std::size_t runs = 0;         ///< the fewest runs of a cell behind it
    std::optional<Interval> ci90; ///< none under k_min_runs_for_interval runs
    std::optional<Interval> ci95;
    /// The look these runs are of and the error rates it may spend (sequential.hpp); the
    /// intervals the rules read at them: "agrees" needs `agree_ci` inside, "differs" `differ_ci`
    /// wholly outside. At a single look they are ci90 and ci95.
    Levels levels;
    std::optional<Interval> agree_ci;
    std::optional<Interval> differ_ci;
};

/// The evidence of a cell's typical value, and of the ratio of two cells' (statistics.hpp's
/// Sample), as it would be after `extra` more runs of the same means and spreads (0: as
/// measured), at the look of `plan` those runs are.
Evidence value_evidence(const Sample& s, std::size_t extra = 0, const LookPlan& plan = {});
Evidence ratio_evidence(const Sample& a, const Sample& b, std::size_t extra = 0,
                        const LookPlan& plan = {});

/// The evidence of a product of typical values (a ratio of ratios; statistics.hpp's Factor) and
/// of a ratio of spreads, after `extra` more runs of each cell. The product needs every factor
/// on the log scale, the spread ratio variation in b: callers check product_of() and
/// spread_ratio() first.
Evidence product_evidence(std::span<const Factor> factors, std::size_t extra = 0,
                          const LookPlan& plan = {});

/// The evidence of a ratio judged on paired runs (one run of each cell per round, a paired or
/// interleaved plan): `log_differences` are the moments of ln(a) − ln(b) over the rounds; the
/// ratio is exp of their mean, its interval exp of their t-interval. What drifts from round to
/// round moves both runs of a round and cancels.
Evidence paired_ratio_evidence(const Moments& log_differences, std::size_t extra = 0,
                               const LookPlan& plan = {});
Evidence spread_evidence(const Sample& a, const Sample& b, std::size_t extra = 0,
                         const LookPlan& plan = {});

/// Which of the things a claim allows a part of the decision tested.
enum class Rule : std::uint8_t { band, at_least, at_most };

/// Which case of the rule applied to the evidence.
enum class Case : std::uint8_t {
    inside,    ///< the exact value, or the agree interval (its end on the bound's side), is inside
    outside,   ///< the exact value, or the differ interval, lies wholly outside
    open,      ///< neither: the differ interval reaches what is allowed, the agree one leaves it
    unbounded, ///< the interval is unbounded (a denominator whose runs could be 0)
};

/// One thing the claim allows, judged on its own.
struct Part {
    Rule rule = Rule::band;
    Case applied = Case::open;
    Verdict verdict = Verdict::inconclusive;
};

/// Why no part could be judged.
enum class Lacking : std::uint8_t {
    nothing,      ///< the parts decided
    one_run,      ///< one run: no interval
    too_few_runs, ///< fewer than k_min_runs_for_interval
    no_rule,      ///< the claim gives nothing to test
};

/// The verdict, the parts it combines and the evidence and allowance they were judged on: one
/// part wholly outside makes the claim differ, every part inside makes it agree, anything else
/// leaves it open.
struct Decision {
    Verdict verdict = Verdict::inconclusive;
    Lacking lacking = Lacking::nothing;
    std::vector<Part> parts; ///< in the order band, at_least, at_most
    Allowed allowed;
    Evidence evidence;
};

Decision decide(const Allowed& allowed, const Evidence& evidence);

/// How many runs more than now a cell would likely need before the claim is decided, if the
/// means and spreads stayed as measured: the fewest `extra` (1 to k_most_extra_runs) for which
/// decide(allowed, evidence_after(extra)) is not inconclusive; none when even that many would
/// not decide it (the spread is too large for the band, or the figure sits on its edge).
constexpr std::size_t k_most_extra_runs = 100;
std::optional<std::size_t>
extra_runs_to_decide(const Allowed& allowed,
                     const std::function<Evidence(std::size_t)>& evidence_after);

} // namespace pglab::lab::judge
