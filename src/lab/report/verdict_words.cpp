// decision_words: one sentence per part of a decision, from the case that applied.
#include "lab/report/verdict_words.hpp"

#include "lab/report/number_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pglab::lab::report {

namespace {

using judge::Case;
using judge::Lacking;
using judge::Part;
using judge::Rule;

std::string interval_words(const judge::Interval& i) {
    return "(" + format_interval(i) + ")";
}

/// "90%", "96.5%", "99.99989%": a confidence as the words name it, with the decimals that show
/// two digits of its complement (an early look of a `repeat` until decided reads an interval of
/// 99.9999%, not of "100%").
std::string percent_words(double confidence) {
    const double complement = 1.0 - confidence;
    const int decimals =
        complement > 0
            ? std::clamp(1 - static_cast<int>(std::floor(std::log10(complement * 100.0))), 0, 8)
            : 0;
    std::string text = fmt::format("{:.{}f}", confidence * 100.0, decimals);
    if (text.find('.') != std::string::npos) {
        text.erase(text.find_last_not_of('0') + 1);
        if (text.back() == '.') {
            text.pop_back();
        }
    }
    return text + "%";
}

constexpr const char* k_unbounded = "its interval is unbounded (the denominator's runs could be 0)";

std::string band_words(Case applied, const Band& band, const Evidence& e) {
    const std::string allowed = band_text(band);
    if (e.exact) {
        return fmt::format("{} (declared exact) is {} {}", format_number(e.value),
                           applied == Case::inside ? "within" : "outside", allowed);
    }
    switch (applied) {
    case Case::inside:
        return fmt::format("its {} interval {} lies within {}",
                           percent_words(e.levels.agree_confidence()), interval_words(*e.agree_ci),
                           allowed);
    case Case::outside:
        return fmt::format("its {} interval {} lies wholly outside {}",
                           percent_words(e.levels.differ_confidence()),
                           interval_words(*e.differ_ci), allowed);
    case Case::open:
        return fmt::format("its {} interval {} is not within {}, and its {} interval {} "
                           "reaches it",
                           percent_words(e.levels.agree_confidence()), interval_words(*e.agree_ci),
                           allowed, percent_words(e.levels.differ_confidence()),
                           interval_words(*e.differ_ci));
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
    // The one-sided bound on the claimed side is the end of the two-sided agree interval.
    const double one_sided = lower ? e.agree_ci->low : e.agree_ci->high;
    const std::string one_sided_percent = percent_words(1.0 - e.levels.agree);
    const std::string differ_percent = percent_words(e.levels.differ_confidence());
    switch (applied) {
    case Case::inside:
        return fmt::format("its one-sided {} bound {} is {} {}", one_sided_percent,
                           format_number(one_sided), side, b);
    case Case::outside:
        return fmt::format("its {} interval {} lies wholly {} {}", differ_percent,
                           interval_words(*e.differ_ci), lower ? "below" : "above", b);
    case Case::open:
        return fmt::format("its one-sided {} bound {} is not {} {}, and its {} interval {} "
                           "reaches {}",
                           one_sided_percent, format_number(one_sided), side, b, differ_percent,
                           interval_words(*e.differ_ci), b);
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
