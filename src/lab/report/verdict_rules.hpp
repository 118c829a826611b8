// The verdict of a claim with a figure, as an equivalence test (two one-sided tests, as in
// bioequivalence): a measured figure agrees with the paper only when its 90% interval lies inside
// what the paper allows, differs only when its 95% interval lies wholly outside, and is
// inconclusive otherwise. A point estimate inside the band proves nothing on its own. Pure
// functions over intervals; claims.cpp measures, this decides.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/report/statistics.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

namespace pglab::lab::report {

using judge::Verdict; ///< lab/judge's: a judgement's verdict

/// What a claim allows of the measured figure: the paper's band (its figure ± tolerance,
/// relative, or absolute around 0), or bounds.
struct Allowed {
    std::optional<Interval> band;
    std::string band_text; ///< "0.175 ± 20%", "0 ± 0"
    std::optional<double> at_least;
    std::optional<double> at_most;
};

Allowed allowed_by(const experiment::Claim& claim);

/// The measured figure as the rules read it.
struct Evidence {
    double value = 0;
    /// Its value is its interval: the quantity came out identical in every run (a count), or the
    /// claim declares it exact; `exact_reason` says which.
    bool exact = false;
    std::string exact_reason;
    std::size_t runs = 0;         ///< the fewest runs of a cell behind it
    std::optional<Interval> ci90; ///< none under k_min_runs_for_interval runs
    std::optional<Interval> ci95;
};

/// The evidence of a cell's typical value, and of the ratio of two cells' (statistics.hpp's
/// Sample), as it would be after `extra` more runs of the same means and spreads (0: as
/// measured).
Evidence value_evidence(const Sample& s, size_t extra = 0);
Evidence ratio_evidence(const Sample& a, const Sample& b, size_t extra = 0);

/// The evidence of a product of typical values (a ratio of ratios; statistics.hpp's Factor) and
/// of a ratio of spreads, after `extra` more runs of each cell. The product needs every factor
/// on the log scale, the spread ratio variation in b: callers check product_of() and
/// spread_ratio() first.
Evidence product_evidence(std::span<const Factor> factors, size_t extra = 0);

/// The evidence of a ratio judged on paired runs (one run of each cell per round, a paired or
/// interleaved plan): `log_differences` are the moments of ln(a) − ln(b) over the rounds; the
/// ratio is exp of their mean, its interval exp of their t-interval. What drifts from round to
/// round moves both runs of a round and cancels.
Evidence paired_ratio_evidence(const Moments& log_differences, size_t extra = 0);
Evidence spread_evidence(const Sample& a, const Sample& b, size_t extra = 0);

struct Decision {
    Verdict verdict = Verdict::inconclusive;
    std::string why; ///< which case applied, in words, with the figures that decided it
};

Decision decide(const Allowed& allowed, const Evidence& evidence);

/// How many runs more than now a cell would likely need before the claim is decided, if the
/// means and spreads stayed as measured: the fewest `extra` (1 to k_most_extra_runs) for which
/// decide(allowed, evidence_after(extra)) is not inconclusive; none when even that many would
/// not decide it (the spread is too large for the band, or the figure sits on its edge).
constexpr size_t k_most_extra_runs = 100;
std::optional<size_t> extra_runs_to_decide(const Allowed& allowed,
                                           const std::function<Evidence(size_t)>& evidence_after);

} // namespace pglab::lab::report
