// Claim evaluation: cells named by selectors, means and their intervals from statistics.hpp
// (Welch's Fieller interval for ratios), and the verdict rules of docs/experiments.md.
#include "lab/report/claims.hpp"

#include "lab/report/cells.hpp"
#include "lab/report/compare.hpp"
#include "lab/report/report.hpp"
#include "lab/report/statistics.hpp"
#include "util/named_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace pglab::lab::report {

namespace {

using experiment::Claim;
using experiment::ClaimKind;

constexpr std::pair<Verdict, const char*> k_verdicts[] = {
    {Verdict::agrees, "agrees"},
    {Verdict::differs, "differs"},
    {Verdict::inconclusive, "inconclusive"},
    {Verdict::untestable, "untestable"},
};

constexpr std::pair<ClaimKind, const char*> k_claim_kinds[] = {
    {ClaimKind::ratio, "ratio"},
    {ClaimKind::value, "value"},
    {ClaimKind::shape, "shape"},
};

/// Values of `metric` in the one cell that `selector` names; an error sentence otherwise.
struct CellValues {
    const Cell* cell = nullptr;
    std::vector<double> values;
    std::string problem;
};

CellValues values_of(const std::string& selector_text, const ResultsDir& results,
                     const MetricValues& metric) {
    CellValues out;
    Selector selector;
    if (!selector_text.empty()) {
        auto parsed = parse_selector(selector_text);
        if (!parsed) {
            out.problem = parsed.error().message;
            return out;
        }
        selector = *parsed;
    }
    std::vector<const Cell*> cells;
    for (const auto& c : results.cells) {
        if (cell_matches(c, selector)) {
            cells.push_back(&c);
        }
    }
    if (cells.size() != 1) {
        out.problem =
            cells.empty()
                ? fmt::format("no cell of this run is \"{}\"", selector_text)
                : fmt::format("\"{}\" names {} cells, not one",
                              selector_text.empty() ? "every cell" : selector_text, cells.size());
        return out;
    }
    out.cell = cells.front();
    const auto it = metric.by_cell.find(out.cell->index);
    if (it == metric.by_cell.end() || it->second.empty()) {
        out.problem = fmt::format("no measured run of \"{}\"", out.cell->label);
        return out;
    }
    out.values = it->second;
    return out;
}

std::string unit_suffix(const MetricInfo& m) {
    if (m.unit.empty()) {
        return m.id == "tps" ? std::string(" tps") : std::string();
    }
    return " " + m.unit;
}

std::string interval_text(const std::optional<Interval>& ci) {
    if (!ci) {
        return " (one run: no interval)";
    }
    if (!ci->bounded) {
        return " (95% CI unbounded)";
    }
    return fmt::format(" (95% CI {} – {})", format_number(ci->low), format_number(ci->high));
}

std::string expected_text(const Claim& c) {
    if (!c.paper_text.empty()) {
        return c.paper_text;
    }
    std::string out;
    if (c.kind == ClaimKind::shape) {
        out = c.shape + " along " + c.over + (c.from.empty() ? "" : " from " + c.from);
        return out + fmt::format(" (±{:.0f}%)", c.tolerance * 100);
    }
    const std::string what = c.kind == ClaimKind::ratio ? "ratio " : "";
    if (c.paper) {
        out = what + format_number(*c.paper)
              + (*c.paper == 0 ? fmt::format(" (± {})", format_number(c.tolerance))
                               : fmt::format(" (±{:.0f}%)", c.tolerance * 100));
    }
    if (c.at_least) {
        out += (out.empty() ? what : " and ") + "≥ " + format_number(*c.at_least);
    }
    if (c.at_most) {
        out += (out.empty() ? what : " and ") + "≤ " + format_number(*c.at_most);
    }
    return out;
}

/// Whether the 95% interval `ci` reaches [low, high]: an unbounded one reaches everything.
bool reaches(const Interval& ci, double low, double high) {
    return !ci.bounded || (ci.high >= low && ci.low <= high);
}

/// The verdict of `r.value` against the paper's value or bounds. A figure outside them differs
/// only when its whole 95% interval (`r.ci`) is outside too; when the interval still reaches
/// what the paper allows, the runs cannot tell (inconclusive). One run has no interval: its
/// figure is judged alone, as the measured column says.
void judge(const Claim& c, ClaimResult& r) {
    const double x = *r.value;
    const std::optional<Interval>& ci = r.ci;
    std::vector<std::string> failed;
    bool all_reached = ci.has_value(); // so *ci below is only read when there is one
    const auto fail = [&](std::string why, double low, double high) {
        failed.push_back(std::move(why));
        all_reached = all_reached && reaches(*ci, low, high);
    };
    if (c.paper) {
        const double allowed = *c.paper == 0 ? c.tolerance : c.tolerance * std::fabs(*c.paper);
        if (std::fabs(x - *c.paper) > allowed) {
            fail(*c.paper == 0 ? fmt::format("{} is not within {} of 0", format_number(x),
                                             format_number(c.tolerance))
                               : fmt::format("{} is outside {} ± {:.0f}%", format_number(x),
                                             format_number(*c.paper), c.tolerance * 100),
                 *c.paper - allowed, *c.paper + allowed);
        }
    }
    if (c.at_most && x > *c.at_most) {
        fail(fmt::format("{} > {}", format_number(x), format_number(*c.at_most)),
             -std::numeric_limits<double>::infinity(), *c.at_most);
    }
    if (c.at_least && x < *c.at_least) {
        fail(fmt::format("{} < {}", format_number(x), format_number(*c.at_least)), *c.at_least,
             std::numeric_limits<double>::infinity());
    }
    for (const auto& f : failed) {
        r.why += (r.why.empty() ? "" : "; ") + f;
    }
    if (failed.empty()) {
        r.verdict = Verdict::agrees;
    } else if (all_reached) {
        r.verdict = Verdict::inconclusive;
        r.why += ci->bounded ? fmt::format(", but its 95% interval ({} – {}) reaches it",
                                           format_number(ci->low), format_number(ci->high))
                             : std::string(", but its 95% interval is unbounded");
        r.why += ": more runs would tell";
    } else {
        r.verdict = Verdict::differs;
    }
}

void evaluate_ratio(const Claim& c, const ResultsDir& results, const MetricValues& m,
                    ClaimResult& r) {
    const CellValues a = values_of(c.cell, results, m);
    const CellValues b = values_of(c.baseline, results, m);
    if (!a.problem.empty() || !b.problem.empty()) {
        r.why = !a.problem.empty() ? a.problem : b.problem;
        return;
    }
    const Summary sa = summarize(a.values);
    const Summary sb = summarize(b.values);
    if (sb.mean == 0) {
        r.why = fmt::format("{} is 0 in \"{}\": no ratio", m.info.title, c.baseline);
        return;
    }
    const double ratio = sa.mean / sb.mean;
    std::optional<Interval> ci;
    if (const auto w = welch(a.values, b.values)) {
        ci = w->ratio_ci;
    }
    r.value = ratio;
    r.ci = ci;
    r.measured = fmt::format("{:.3f}{} = {} / {}{}", ratio, interval_text(ci),
                             format_number(sa.mean), format_number(sb.mean), unit_suffix(m.info));
    judge(c, r);
}

void evaluate_value(const Claim& c, const ResultsDir& results, const MetricValues& m,
                    ClaimResult& r) {
    const CellValues a = values_of(c.cell, results, m);
    if (!a.problem.empty()) {
        r.why = a.problem;
        return;
    }
    const Summary s = summarize(a.values);
    r.value = s.mean;
    r.ci = s.ci95;
    r.measured = format_number(s.mean) + unit_suffix(m.info) + interval_text(s.ci95);
    judge(c, r);
}

void evaluate_shape(const Claim& c, const ResultsDir& results, const MetricValues& m,
                    ClaimResult& r) {
    Selector selector;
    if (!c.cell.empty()) {
        if (auto parsed = parse_selector(c.cell)) {
            selector = *parsed;
        }
    }
    std::vector<double> means;
    std::vector<std::string> parts;
    bool started = c.from.empty();
    for (const auto& cell : results.cells) {
        const auto v = cell.values.find(c.over);
        if (!cell_matches(cell, selector) || v == cell.values.end()) {
            continue;
        }
        started = started || value_text(*v) == c.from;
        if (!started) {
            continue;
        }
        const auto it = m.by_cell.find(cell.index);
        if (it == m.by_cell.end() || it->second.empty()) {
            r.why = fmt::format("no measured run of \"{}\"", cell.label);
            r.series.clear();
            return;
        }
        const Summary s = summarize(it->second);
        means.push_back(s.mean);
        r.series.emplace_back(value_text(*v), s.mean);
        parts.push_back(fmt::format("{}: {}", value_text(*v), format_number(s.mean)));
    }
    if (means.size() < 2) {
        r.why = fmt::format("fewer than two cells along {}", c.over);
        r.series.clear();
        return;
    }
    std::string joined;
    for (const auto& p : parts) {
        joined += (joined.empty() ? "" : " → ") + p;
    }
    const double avg = mean(means);
    double worst = 0; // the largest departure from the shape, relative
    for (size_t i = 0; i < means.size(); ++i) {
        if (c.shape == "flat") {
            worst = std::max(worst, avg != 0 ? std::fabs(means[i] - avg) / std::fabs(avg) : 0.0);
        } else if (i > 0 && means[i - 1] != 0) {
            const double step = (means[i] - means[i - 1]) / std::fabs(means[i - 1]);
            worst = std::max(worst, c.shape == "increasing" ? -step : step);
        }
    }
    std::string how;
    if (c.shape == "flat") {
        how = fmt::format(" (at most {:.1f}% from their mean)", worst * 100);
    } else if (worst == 0) {
        how = c.shape == "increasing" ? " (every step up)" : " (every step down)";
    } else {
        how = fmt::format(" (a step of {:.1f}% against the trend)", worst * 100);
    }
    r.measured = joined + unit_suffix(m.info) + how;
    const bool trend_ok =
        c.shape == "flat"
        || (c.shape == "increasing" ? means.back() > means.front() : means.back() < means.front());
    const bool ok = worst <= c.tolerance && trend_ok;
    r.verdict = ok ? Verdict::agrees : Verdict::differs;
    if (!ok) {
        r.why = c.shape == "flat"
                    ? fmt::format("a cell is {:.1f}% from the mean", worst * 100)
                    : fmt::format("not {} within {:.0f}%", c.shape, c.tolerance * 100);
    }
}

} // namespace

std::vector<ClaimResult> evaluate_claims(const std::vector<Claim>& claims,
                                         const ResultsDir& results,
                                         const std::vector<StepData>& steps) {
    std::vector<ClaimResult> out;
    for (const auto& c : claims) {
        ClaimResult r;
        r.claim = c;
        r.paper = expected_text(c);
        if (!c.untestable.empty()) {
            r.why = c.untestable;
            out.push_back(std::move(r));
            continue;
        }
        const auto step = std::find_if(steps.begin(), steps.end(),
                                       [&](const StepData& s) { return s.key == c.step; });
        const MetricValues* m = step != steps.end() ? find_metric(*step, c.metric) : nullptr;
        if (step == steps.end()) {
            r.why = fmt::format("step \"{}\" has no results", c.step);
        } else if (m == nullptr || m->by_cell.empty()) {
            r.why = fmt::format("step \"{}\" recorded no \"{}\"", c.step, c.metric);
        } else if (c.kind == ClaimKind::ratio) {
            evaluate_ratio(c, results, *m, r);
        } else if (c.kind == ClaimKind::shape) {
            evaluate_shape(c, results, *m, r);
        } else {
            evaluate_value(c, results, *m, r);
        }
        out.push_back(std::move(r));
    }
    return out;
}

const char* verdict_name(Verdict v) {
    return util::name_of(k_verdicts, v);
}

const char* claim_kind_name(ClaimKind k) {
    return util::name_of(k_claim_kinds, k);
}

std::string verdict_text(const ClaimResult& r) {
    switch (r.verdict) {
    case Verdict::agrees:
        return "agrees";
    case Verdict::differs: {
        std::string out = "differs: " + r.why;
        if (!r.claim.explanation.empty()) {
            out += ". " + r.claim.explanation;
        }
        return out;
    }
    case Verdict::inconclusive:
        return "inconclusive: " + r.why;
    case Verdict::untestable:
        return "cannot be tested here: " + r.why;
    }
    return "?";
}

Table claims_table(const std::vector<ClaimResult>& results) {
    Table t;
    t.header = {"claim", "paper", "measured (95% CI)", "verdict"};
    t.numeric = {false, false, false, false};
    for (const auto& r : results) {
        std::string claim = r.claim.text;
        if (!r.claim.source.empty()) {
            claim += " (" + r.claim.source + ")";
        }
        t.rows.push_back({claim, r.paper.empty() ? "-" : r.paper,
                          r.measured.empty() ? "-" : r.measured, verdict_text(r)});
    }
    return t;
}

ExperimentClaims read_claims(const ResultsDir& results) {
    ExperimentClaims out;
    out.problem = results.experiment_problem;
    if (results.experiment) {
        out.question = results.experiment->question;
        out.claims = results.experiment->claims;
    }
    return out;
}

} // namespace pglab::lab::report
