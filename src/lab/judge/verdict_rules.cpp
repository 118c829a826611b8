// Each thing a claim allows (its band, a lower bound, an upper bound) is tested on its own and
// the verdicts combined: see verdict_rules.hpp.
#include "lab/judge/verdict_rules.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace pglab::lab::judge {

namespace {

Verdict verdict_of(Case c) {
    switch (c) {
    case Case::inside:
        return Verdict::agrees;
    case Case::outside:
        return Verdict::differs;
    case Case::open:
    case Case::unbounded:
        break;
    }
    return Verdict::inconclusive;
}

Case judge_band(const Interval& band, const Evidence& e) {
    if (e.exact) {
        return e.value >= band.low && e.value <= band.high ? Case::inside : Case::outside;
    }
    const Interval& i90 = *e.agree_ci;
    const Interval& i95 = *e.differ_ci;
    if (i90.bounded && i90.low >= band.low && i90.high <= band.high) {
        return Case::inside;
    }
    if (i95.bounded && (i95.high < band.low || i95.low > band.high)) {
        return Case::outside;
    }
    return i90.bounded ? Case::open : Case::unbounded;
}

/// `lower`: an at_least bound (the figure must be at least `bound`); else an at_most bound.
Case judge_bound(double bound, bool lower, const Evidence& e) {
    if (e.exact) {
        return (lower ? e.value >= bound : e.value <= bound) ? Case::inside : Case::outside;
    }
    const Interval& i90 = *e.agree_ci;
    const Interval& i95 = *e.differ_ci;
    // The one-sided bound on the claimed side is the end of the two-sided agree interval.
    const double one_sided = lower ? i90.low : i90.high;
    if (i90.bounded && (lower ? one_sided >= bound : one_sided <= bound)) {
        return Case::inside;
    }
    if (i95.bounded && (lower ? i95.high < bound : i95.low > bound)) {
        return Case::outside;
    }
    return i90.bounded ? Case::open : Case::unbounded;
}

/// The intervals of `e` from `interval_at(confidence)`: the 90% and 95% ones it shows, and those
/// the rules read at the levels of the look its runs are.
template <typename IntervalAt>
void read_intervals(Evidence& e, const LookPlan& plan, IntervalAt interval_at) {
    e.ci90 = interval_at(0.90);
    e.ci95 = interval_at(0.95);
    e.levels = levels_at(plan, e.runs);
    if (e.levels == Levels{}) {
        e.agree_ci = e.ci90;
        e.differ_ci = e.ci95;
        return;
    }
    e.agree_ci = interval_at(e.levels.agree_confidence());
    e.differ_ci = interval_at(e.levels.differ_confidence());
}

/// The evidence of a figure of two samples, `value` of them as measured and `interval` of them
/// after `extra` more runs each.
template <typename Value, typename IntervalOf>
Evidence two_sample_evidence(const Sample& a, const Sample& b, std::size_t extra,
                             const LookPlan& plan, Value value, IntervalOf interval) {
    const Sample more_a = with_more_values(a, extra);
    const Sample more_b = with_more_values(b, extra);
    Evidence e;
    e.value = value(a, b);
    e.runs = std::min(more_a.linear.n, more_b.linear.n);
    read_intervals(e, plan,
                   [&](double confidence) { return interval(more_a, more_b, confidence); });
    return e;
}

} // namespace

Interval Band::bounds() const {
    const double half = centre == 0 ? tolerance : tolerance * std::fabs(centre);
    return Interval{centre - half, centre + half, true};
}

Allowed allowed_by(const experiment::Claim& claim) {
    Allowed a;
    if (claim.paper) {
        a.band = Band{*claim.paper, claim.tolerance};
    }
    a.at_least = claim.at_least;
    a.at_most = claim.at_most;
    return a;
}

Evidence value_evidence(const Sample& s, std::size_t extra, const LookPlan& plan) {
    const Sample more = with_more_values(s, extra);
    Evidence e;
    e.value = typical_value(s);
    e.runs = more.linear.n;
    read_intervals(e, plan, [&](double confidence) { return typical_interval(more, confidence); });
    return e;
}

Evidence ratio_evidence(const Sample& a, const Sample& b, std::size_t extra, const LookPlan& plan) {
    return two_sample_evidence(a, b, extra, plan, typical_ratio, typical_ratio_interval);
}

Evidence product_evidence(std::span<const Factor> factors, std::size_t extra,
                          const LookPlan& plan) {
    std::vector<Sample> more;
    more.reserve(factors.size());
    for (const Factor& f : factors) {
        more.push_back(with_more_values(*f.sample, extra));
    }
    std::vector<Factor> more_factors;
    more_factors.reserve(factors.size());
    for (std::size_t i = 0; i < factors.size(); ++i) {
        more_factors.push_back(Factor{&more[i], factors[i].power});
    }
    Evidence e;
    e.value = product_of(factors).value_or(0.0);
    e.runs = more.empty() ? 0 : more.front().linear.n;
    for (const Sample& s : more) {
        e.runs = std::min(e.runs, s.linear.n);
    }
    read_intervals(e, plan,
                   [&](double confidence) { return product_interval(more_factors, confidence); });
    return e;
}

Evidence paired_ratio_evidence(const Moments& log_differences, std::size_t extra,
                               const LookPlan& plan) {
    const Moments more = with_more_values(log_differences, extra);
    Evidence e;
    e.value = std::exp(log_differences.mean);
    e.runs = more.n;
    read_intervals(e, plan, [&](double confidence) -> std::optional<Interval> {
        if (more.n < k_min_runs_for_interval) {
            return std::nullopt;
        }
        const Interval logs = *mean_interval(more, confidence);
        return Interval{std::exp(logs.low), std::exp(logs.high), true};
    });
    return e;
}

Evidence spread_evidence(const Sample& a, const Sample& b, std::size_t extra,
                         const LookPlan& plan) {
    return two_sample_evidence(
        a, b, extra, plan,
        [](const Sample& x, const Sample& y) { return spread_ratio(x, y).value_or(0.0); },
        spread_ratio_interval);
}

Decision decide(const Allowed& allowed, const Evidence& evidence) {
    Decision d;
    d.allowed = allowed;
    d.evidence = evidence;
    if (!evidence.exact && !evidence.agree_ci) {
        d.lacking = evidence.runs <= 1 ? Lacking::one_run : Lacking::too_few_runs;
        return d;
    }
    d.parts.reserve(3); // also spares GCC 12 a false -Wstringop-overflow on the growth
    if (allowed.band) {
        const Case c = judge_band(allowed.band->bounds(), evidence);
        d.parts.push_back({Rule::band, c, verdict_of(c)});
    }
    if (allowed.at_least) {
        const Case c = judge_bound(*allowed.at_least, true, evidence);
        d.parts.push_back({Rule::at_least, c, verdict_of(c)});
    }
    if (allowed.at_most) {
        const Case c = judge_bound(*allowed.at_most, false, evidence);
        d.parts.push_back({Rule::at_most, c, verdict_of(c)});
    }
    if (d.parts.empty()) {
        d.lacking = Lacking::no_rule;
        return d;
    }
    const auto any = [&](Verdict v) {
        return std::any_of(d.parts.begin(), d.parts.end(),
                           [v](const Part& p) { return p.verdict == v; });
    };
    d.verdict = any(Verdict::differs)        ? Verdict::differs
                : any(Verdict::inconclusive) ? Verdict::inconclusive
                                             : Verdict::agrees;
    return d;
}

std::optional<std::size_t>
extra_runs_to_decide(const Allowed& allowed,
                     const std::function<Evidence(std::size_t)>& evidence_after) {
    for (std::size_t extra = 1; extra <= k_most_extra_runs; ++extra) {
        if (decide(allowed, evidence_after(extra)).verdict != Verdict::inconclusive) {
            return extra;
        }
    }
    return std::nullopt;
}

} // namespace pglab::lab::judge
