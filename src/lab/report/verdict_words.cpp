// decision_words: one sentence per part of a decision, from the case that applied.
#include "lab/report/verdict_words.hpp"

#include "lab/report/number_format.hpp"

#include <fmt/format.h>

namespace pglab::lab::report {

namespace {

using judge::Case;
using judge::Lacking;
using judge::Part;
using judge::Rule;

std::string interval_words(const judge::Interval& i) {
    return "(" + format_interval(i) + ")";
}

constexpr const char* k_unbounded = "its interval is unbounded (the denominator's runs could be 0)";

std::string band_words(Case applied, const Band& band, const Evidence& e) {
    const std::string allowed = band_text(band);
    switch (applied) {
    case Case::inside:
        return e.exact ? fmt::format("{} (declared exact) is within {}", format_number(e.value),
                                     allowed)
                       : fmt::format("its 90% interval {} lies within {}", interval_words(*e.ci90),
                                     allowed);
    case Case::outside:
        return e.exact ? fmt::format("{} (declared exact) is outside {}", format_number(e.value),
                                     allowed)
                       : fmt::format("its 95% interval {} lies wholly outside {}",
                                     interval_words(*e.ci95), allowed);
    case Case::open:
        return fmt::format("its 90% interval {} is not within {}, and its 95% interval {} "
                           "reaches it",
                           interval_words(*e.ci90), allowed, interval_words(*e.ci95));
    case Case::unbounded:
        break;
    }
    return k_unbounded;
}

std::string bound_words(Case applied, double bound, bool lower, const Evidence& e) {
    const char* const side = lower ? "≥" : "≤";
    const std::string b = format_number(bound);
    if (e.exact) {
        return fmt::format("{} (declared exact) is {}{} {}", format_number(e.value),
                           applied == Case::inside ? "" : "not ", side, b);
    }
    // The one-sided 95% bound on the claimed side is the end of the two-sided 90% interval.
    const double one_sided = lower ? e.ci90->low : e.ci90->high;
    switch (applied) {
    case Case::inside:
        return fmt::format("its one-sided 95% bound {} is {} {}", format_number(one_sided), side,
                           b);
    case Case::outside:
        return fmt::format("its 95% interval {} lies wholly {} {}", interval_words(*e.ci95),
                           lower ? "below" : "above", b);
    case Case::open:
        return fmt::format("its one-sided 95% bound {} is not {} {}, and its 95% interval {} "
                           "reaches {}",
                           format_number(one_sided), side, b, interval_words(*e.ci95), b);
    case Case::unbounded:
        break;
    }
    return k_unbounded;
}

std::string part_words(const Part& p, const Decision& d) {
    switch (p.rule) {
    case Rule::band:
        return band_words(p.applied, *d.allowed.band, d.evidence);
    case Rule::at_least:
        return bound_words(p.applied, *d.allowed.at_least, true, d.evidence);
    case Rule::at_most:
        return bound_words(p.applied, *d.allowed.at_most, false, d.evidence);
    }
    return {};
}

} // namespace

std::string band_text(const Band& band) {
    return band.centre == 0 ? fmt::format("0 ± {}", format_number(band.tolerance))
                            : format_number(band.centre) + " ± " + format_percent(band.tolerance);
}

std::string decision_words(const Decision& d) {
    switch (d.lacking) {
    case Lacking::one_run:
        return fmt::format("{} from one run, which has no interval",
                           format_number(d.evidence.value));
    case Lacking::too_few_runs:
        return fmt::format("{} from {} runs, too few for an interval ({} at the least)",
                           format_number(d.evidence.value), d.evidence.runs,
                           judge::k_min_runs_for_interval);
    case Lacking::no_rule:
        return "the claim gives nothing to test";
    case Lacking::nothing:
        break;
    }
    std::string out;
    for (const Part& p : d.parts) {
        if (p.verdict == d.verdict) {
            out += (out.empty() ? "" : "; ") + part_words(p, d);
        }
    }
    return out;
}

} // namespace pglab::lab::report
