// Each thing a claim allows (its band, a lower bound, an upper bound) is tested on its own and
// the verdicts combined: one part wholly outside makes the claim differ, every part inside makes
// it agree, anything else leaves it open.
#include "lab/report/verdict_rules.hpp"

#include "lab/report/number_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace pglab::lab::report {

namespace {

std::string interval_words(const Interval& i) {
    return "(" + format_interval(i) + ")";
}

constexpr const char* k_unbounded = "its interval is unbounded (the denominator's runs could be 0)";

/// One part of what the claim allows, judged.
struct Part {
    Verdict verdict = Verdict::inconclusive;
    std::string words;
};

Part judge_band(const Interval& band, const std::string& band_text, const Evidence& e) {
    if (e.exact) {
        const bool inside = e.value >= band.low && e.value <= band.high;
        return {inside ? Verdict::agrees : Verdict::differs,
                fmt::format("{} ({}) is {} {}", format_number(e.value), e.exact_reason,
                            inside ? "within" : "outside", band_text)};
    }
    const Interval& i90 = *e.ci90;
    const Interval& i95 = *e.ci95;
    if (i90.bounded && i90.low >= band.low && i90.high <= band.high) {
        return {Verdict::agrees,
                fmt::format("its 90% interval {} lies within {}", interval_words(i90), band_text)};
    }
    if (i95.bounded && (i95.high < band.low || i95.low > band.high)) {
        return {Verdict::differs, fmt::format("its 95% interval {} lies wholly outside {}",
                                              interval_words(i95), band_text)};
    }
    if (!i90.bounded) {
        return {Verdict::inconclusive, k_unbounded};
    }
    return {Verdict::inconclusive,
            fmt::format("its 90% interval {} is not within {}, and its 95% interval {} reaches it",
                        interval_words(i90), band_text, interval_words(i95))};
}

/// `lower`: an at_least bound (the figure must be at least `bound`); else an at_most bound.
Part judge_bound(double bound, bool lower, const Evidence& e) {
    const char* const side = lower ? "≥" : "≤";
    const std::string b = format_number(bound);
    if (e.exact) {
        const bool holds = lower ? e.value >= bound : e.value <= bound;
        return {holds ? Verdict::agrees : Verdict::differs,
                fmt::format("{} ({}) is {}{} {}", format_number(e.value), e.exact_reason,
                            holds ? "" : "not ", side, b)};
    }
    const Interval& i90 = *e.ci90;
    const Interval& i95 = *e.ci95;
    // The one-sided 95% bound on the claimed side is the end of the two-sided 90% interval.
    const double one_sided = lower ? i90.low : i90.high;
    if (i90.bounded && (lower ? one_sided >= bound : one_sided <= bound)) {
        return {Verdict::agrees, fmt::format("its one-sided 95% bound {} is {} {}",
                                             format_number(one_sided), side, b)};
    }
    if (i95.bounded && (lower ? i95.high < bound : i95.low > bound)) {
        return {Verdict::differs, fmt::format("its 95% interval {} lies wholly {} {}",
                                              interval_words(i95), lower ? "below" : "above", b)};
    }
    if (!i90.bounded) {
        return {Verdict::inconclusive, k_unbounded};
    }
    return {Verdict::inconclusive,
            fmt::format("its one-sided 95% bound {} is not {} {}, and its 95% interval {} "
                        "reaches {}",
                        format_number(one_sided), side, b, interval_words(i95), b)};
}

std::string joined(const std::vector<Part>& parts, Verdict only) {
    std::string out;
    for (const auto& p : parts) {
        if (p.verdict == only) {
            out += (out.empty() ? "" : "; ") + p.words;
        }
    }
    return out;
}

} // namespace

Allowed allowed_by(const experiment::Claim& claim) {
    Allowed a;
    if (claim.paper) {
        const double paper = *claim.paper;
        const double half = paper == 0 ? claim.tolerance : claim.tolerance * std::fabs(paper);
        a.band = Interval{paper - half, paper + half, true};
        a.band_text = paper == 0 ? fmt::format("0 ± {}", format_number(claim.tolerance))
                                 : format_number(paper) + " ± " + format_percent(claim.tolerance);
    }
    a.at_least = claim.at_least;
    a.at_most = claim.at_most;
    return a;
}

Evidence value_evidence(const Sample& s, size_t extra) {
    const Sample more = with_more_values(s, extra);
    Evidence e;
    e.value = typical_value(s);
    e.runs = more.linear.n;
    e.ci90 = typical_interval(more, 0.90);
    e.ci95 = typical_interval(more, 0.95);
    return e;
}

namespace {

/// The evidence of a figure of two samples, `value` of them as measured and `interval` of them
/// after `extra` more runs each.
template <typename Value, typename IntervalOf>
Evidence two_sample_evidence(const Sample& a, const Sample& b, size_t extra, Value value,
                             IntervalOf interval) {
    const Sample more_a = with_more_values(a, extra);
    const Sample more_b = with_more_values(b, extra);
    Evidence e;
    e.value = value(a, b);
    e.runs = std::min(more_a.linear.n, more_b.linear.n);
    e.ci90 = interval(more_a, more_b, 0.90);
    e.ci95 = interval(more_a, more_b, 0.95);
    return e;
}

} // namespace

Evidence ratio_evidence(const Sample& a, const Sample& b, size_t extra) {
    return two_sample_evidence(a, b, extra, typical_ratio, typical_ratio_interval);
}

Evidence product_evidence(std::span<const Factor> factors, size_t extra) {
    std::vector<Sample> more;
    more.reserve(factors.size());
    for (const Factor& f : factors) {
        more.push_back(with_more_values(*f.sample, extra));
    }
    std::vector<Factor> more_factors;
    more_factors.reserve(factors.size());
    for (size_t i = 0; i < factors.size(); ++i) {
        more_factors.push_back(Factor{&more[i], factors[i].power});
    }
    Evidence e;
    e.value = product_of(factors).value_or(0.0);
    e.runs = more.empty() ? 0 : more.front().linear.n;
    for (const Sample& s : more) {
        e.runs = std::min(e.runs, s.linear.n);
    }
    e.ci90 = product_interval(more_factors, 0.90);
    e.ci95 = product_interval(more_factors, 0.95);
    return e;
}

Evidence paired_ratio_evidence(const Moments& log_differences, size_t extra) {
    const Moments more = with_more_values(log_differences, extra);
    Evidence e;
    e.value = std::exp(log_differences.mean);
    e.runs = more.n;
    if (more.n >= k_min_runs_for_interval) {
        for (auto [confidence, ci] : {std::pair{0.90, &e.ci90}, std::pair{0.95, &e.ci95}}) {
            const Interval logs = *mean_interval(more, confidence);
            *ci = Interval{std::exp(logs.low), std::exp(logs.high), true};
        }
    }
    return e;
}

Evidence spread_evidence(const Sample& a, const Sample& b, size_t extra) {
    return two_sample_evidence(
        a, b, extra,
        [](const Sample& x, const Sample& y) { return spread_ratio(x, y).value_or(0.0); },
        spread_ratio_interval);
}

Decision decide(const Allowed& allowed, const Evidence& evidence) {
    if (!evidence.exact && !evidence.ci90) {
        return {Verdict::inconclusive,
                evidence.runs <= 1
                    ? fmt::format("{} from one run, which has no interval",
                                  format_number(evidence.value))
                    : fmt::format("{} from {} runs, too few for an interval ({} at the least)",
                                  format_number(evidence.value), evidence.runs,
                                  k_min_runs_for_interval)};
    }
    std::vector<Part> parts;
    if (allowed.band) {
        parts.push_back(judge_band(*allowed.band, allowed.band_text, evidence));
    }
    if (allowed.at_least) {
        parts.push_back(judge_bound(*allowed.at_least, true, evidence));
    }
    if (allowed.at_most) {
        parts.push_back(judge_bound(*allowed.at_most, false, evidence));
    }
    if (parts.empty()) {
        return {Verdict::inconclusive, "the claim gives nothing to test"};
    }
    for (const Verdict v : {Verdict::differs, Verdict::inconclusive}) {
        if (std::string words = joined(parts, v); !words.empty()) {
            return {v, std::move(words)};
        }
    }
    return {Verdict::agrees, joined(parts, Verdict::agrees)};
}

std::optional<size_t> extra_runs_to_decide(const Allowed& allowed,
                                           const std::function<Evidence(size_t)>& evidence_after) {
    for (size_t extra = 1; extra <= k_most_extra_runs; ++extra) {
        if (decide(allowed, evidence_after(extra)).verdict != Verdict::inconclusive) {
            return extra;
        }
    }
    return std::nullopt;
}

} // namespace pglab::lab::report
