// The words of a judged claim: what it tests (the paper column), what more runs would do, at
// which look it was decided, the measured evidence beside its explanation, and the report's
// table of claims. The judging (claims.cpp, claim_shapes.cpp, claim_comparisons.cpp) leaves its
// values in each claim's judgement; these say them.
#include "lab/report/claim_words.hpp"

#include "lab/report/number_format.hpp"
#include "lab/report/verdict_words.hpp"
#include "util/named_values.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

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

/// What a shape allows, as the file gave it: " (±5%)", " (steps ≥ +10%)", " (steps ≥ +10%,
/// then ±5%)".
std::string shape_band_text(const Claim& c) {
    const std::string band = "±" + format_percent(c.tolerance);
    const std::string step = fmt::format(
        "steps {} {}{}", c.shape == experiment::Shape::decreasing ? "≤" : "≥",
        c.shape == experiment::Shape::decreasing ? "−" : "+", format_percent(c.min_step));
    if (c.shape == experiment::Shape::flat) {
        return " (" + band + ")";
    }
    if (c.shape == experiment::Shape::levels_off) {
        return " (" + step + ", then " + band + ")";
    }
    return " (" + step + ")";
}

/// What the claim tests, built from its figures: "ratio 0.553 (±10%)", "≥ 1", "flat along
/// clients (±10%)".
std::string tested_text(const Claim& c) {
    std::string out;
    if (c.kind == ClaimKind::shape || c.kind == ClaimKind::ratio_along) {
        const std::string shape = c.shape == experiment::Shape::levels_off
                                      ? "rising, then level,"
                                      : experiment::shape_name(c.shape);
        out = (c.kind == ClaimKind::ratio_along ? "ratio " : "") + shape + " along " + c.over
              + (c.from.empty() ? "" : " from " + c.from);
        return out + shape_band_text(c);
    }
    const std::string what = c.kind == ClaimKind::ratio             ? "ratio "
                             : c.kind == ClaimKind::ratio_of_ratios ? "ratio of ratios "
                             : c.kind == ClaimKind::spread          ? "spread ratio "
                                                                    : "";
    if (c.paper) {
        out = what + format_number(*c.paper)
              + (*c.paper == 0 ? fmt::format(" (± {})", format_number(c.tolerance))
                               : " (±" + format_percent(c.tolerance) + ")");
    }
    if (c.at_least) {
        out += (out.empty() ? what : " and ") + "≥ " + format_number(*c.at_least);
    }
    if (c.at_most) {
        out += (out.empty() ? what : " and ") + "≤ " + format_number(*c.at_most);
    }
    return out;
}

/// The paper column: the paper's words and what pglab tests of them; for pglab's own
/// hypotheses, what it tests.
std::string expected_text(const Claim& c) {
    const std::string tested = tested_text(c);
    if (c.paper_text.empty()) {
        return tested;
    }
    return tested.empty() ? c.paper_text : c.paper_text + "; tested as " + tested;
}

/// What a figure's runs were read as, before its interval: "geometric mean; ", "mean of the
/// log-odds; ", or "" for a plain mean.
const char* mean_word(const FigureOrigin& o) {
    return o.logit ? "mean of the log-odds; " : o.log ? "geometric mean; " : "";
}

/// The same for a quotient of two cells' typical values.
const char* mean_words(const FigureOrigin& o) {
    return o.logit ? ", means of the log-odds" : o.log ? ", geometric means" : "";
}

/// " (95% CI 0.800 – 0.861)", or " (95% CI unbounded)".
std::string interval_text(const judge::Interval& ci) {
    return ci.bounded ? " (95% CI " + format_interval(ci) + ")" : " (95% CI unbounded)";
}

/// Where the runs are too few for an interval, the runs themselves: "one run: no interval",
/// "runs: 1330.1, 1348.3 / 1600.2, 1617.0; no interval under 3 runs".
std::string few_runs_text(const std::vector<std::vector<double>>& cells) {
    if (std::all_of(cells.begin(), cells.end(),
                    [](const std::vector<double>& v) { return v.size() <= 1; })) {
        return "one run: no interval";
    }
    std::string out = "runs: ";
    const char* cell_sep = "";
    for (const auto& values : cells) {
        out += cell_sep;
        cell_sep = " / ";
        const char* sep = "";
        for (const double v : values) {
            out += sep + format_number(v);
            sep = ", ";
        }
    }
    return out + fmt::format("; no interval under {} runs", k_min_runs_for_interval);
}

/// A shape's levels and the ratios between them (below).
std::string shape_measured(const ClaimResult& r);

/// The measured column of a single figure: "1187.1 tps (geometric mean; 95% CI 1152.9 –
/// 1222.2)", or a quotient's "0.830 (95% CI 0.785 – 0.878) = 1335.5 / 1608.6 ms, geometric means
/// of 3 rounds, judged in pairs" ("0.855 = QUOTIENT (runs: …)" without an interval).
std::string measured_words(const ClaimResult& r) {
    const FigureOrigin& o = r.origin;
    const judge::Judgement& j = r.judgement;
    const double value = j.value.value_or(0.0);
    std::string quotient;
    switch (o.kind) {
    case FigureOrigin::Kind::none:
        return r.measured;
    case FigureOrigin::Kind::shape:
        return shape_measured(r);
    case FigureOrigin::Kind::value: {
        const std::string figure = format_number(value) + unit_suffix(o.metric);
        const char* const typical = o.several ? mean_word(o) : "";
        return j.ci95 ? fmt::format("{} ({}95% CI {})", figure, typical, format_interval(*j.ci95))
                      : fmt::format("{} ({}{})", figure, typical, few_runs_text(o.runs));
    }
    case FigureOrigin::Kind::ratio:
        quotient = o.rounds > 0
                       ? fmt::format("{} / {}{}, geometric means of {} rounds, judged in "
                                     "pairs",
                                     format_number(o.numerator), format_number(o.denominator),
                                     unit_suffix(o.metric), o.rounds)
                       : fmt::format("{} / {}{}{}", format_number(o.numerator),
                                     format_number(o.denominator), unit_suffix(o.metric),
                                     o.several ? mean_words(o) : "");
        break;
    case FigureOrigin::Kind::ratio_of_ratios:
        quotient = fmt::format("{:.3f} / {:.3f}", o.numerator, o.denominator)
                   + (o.rounds > 0 ? fmt::format(", judged round by round ({} rounds)", o.rounds)
                                   : std::string());
        break;
    case FigureOrigin::Kind::spread_ratio:
        quotient = fmt::format("{} {} / {}", o.scale, format_number(o.numerator),
                               format_number(o.denominator));
        break;
    }
    return j.ci95 ? fmt::format("{:.3f}{} = {}", value, interval_text(*j.ci95), quotient)
                  : fmt::format("{:.3f} = {} ({})", value, quotient, few_runs_text(o.runs));
}

/// "agrees", "differs", "is inconclusive": what a claim does, said of all its runs.
const char* verdict_verb(Verdict v) {
    return v == Verdict::agrees ? "agrees" : v == Verdict::differs ? "differs" : "is inconclusive";
}

/// Whose runs more would be of: "the cell", "each cell", "both cells, in pairs,", "the four
/// cells, round by round,", as the claim's figure was read.
const char* whose_runs(const ClaimResult& r) {
    const bool paired = r.judgement.basis == judge::Basis::paired;
    switch (r.claim.kind) {
    case ClaimKind::value:
        return "the cell";
    case ClaimKind::ratio:
        return paired ? "both cells, in pairs," : "each cell";
    case ClaimKind::ratio_of_ratios:
        return paired ? "the four cells, round by round," : "each cell";
    default:
        return "each cell";
    }
}

/// Why a claim has no figure to judge, in words: "step \"tpcb\" has no results".
std::string unjudged_words(const judge::Unjudged& u) {
    using Why = judge::Unjudged::Why;
    switch (u.why) {
    case Why::declared:
        return u.subject;
    case Why::no_step:
        return fmt::format("step \"{}\" has no results", u.subject);
    case Why::no_metric:
        return fmt::format("step \"{}\" recorded no \"{}\"", u.subject, u.metric);
    case Why::no_cell:
        return fmt::format("no cell of this run is \"{}\"", u.subject);
    case Why::several_cells:
        return fmt::format("\"{}\" names {} cells, not one",
                           u.subject.empty() ? "every cell" : u.subject, u.count);
    case Why::no_runs:
        return fmt::format("no measured run of \"{}\"", u.subject);
    case Why::no_cell_at:
        return fmt::format("no cell of this run is \"{}\" at {} {}", u.subject, u.over, u.at);
    case Why::several_cells_at:
        return fmt::format("\"{}\" names more than one cell at {} {}", u.subject, u.over, u.at);
    case Why::too_few_levels:
        return fmt::format("fewer than {} cells along {}", u.count == 3 ? "three" : "two", u.over);
    case Why::over_zero:
        return fmt::format("{} is 0 in \"{}\" (in every run) and {:.4g} in \"{}\": a ratio over 0 "
                           "has no finite value, and more runs like these would not decide it",
                           u.metric, u.subject, u.figure, u.other);
    case Why::log_of_zero:
        return "a ratio of ratios is read on the log scale, and a run of one of its cells is 0 or "
               "below";
    case Why::one_run_spread:
        return "a spread needs runs that can vary: one run of a cell has none; more runs of each "
               "cell would give one";
    case Why::constant_baseline:
        return fmt::format("the runs of \"{}\" do not vary: no ratio of spreads", u.subject);
    }
    return {};
}

/// "clients 30 over 10 is 0.800: its 95% interval …": one ratio of a shape and the case of the
/// rule that applied, or why the ratio has none.
std::string shape_ratio_line(const std::string& over, const judge::ShapeRatio& s) {
    const std::string what = fmt::format("{} {} over {}", over, s.a, s.b);
    switch (s.problem) {
    case judge::ShapeRatio::Problem::zero_denominator:
        return what + ": 0 in the denominator, no ratio";
    case judge::ShapeRatio::Problem::log_of_zero:
        return what + ": a ratio of ratios is read on the log scale, and a run is 0 or below";
    case judge::ShapeRatio::Problem::none:
        break;
    }
    return fmt::format("{} is {:.3f}: {}", what, s.value, decision_words(*s.decision));
}

/// "0.800 (0.78 – 0.82)": a ratio shown after a shape's levels; "" for one that has none.
std::string shape_ratio_figure(const judge::ShapeRatio& s) {
    if (s.problem != judge::ShapeRatio::Problem::none) {
        return {};
    }
    return fmt::format("{:.3f}{}", s.value, s.ci95 ? " (" + format_interval(*s.ci95) + ")" : "");
}

/// The first ratio's line, and how many more there are: "… (and 2 more undecided)".
std::string first_and_count(const std::string& over, const std::vector<judge::ShapeRatio>& ratios,
                            const char* more) {
    return shape_ratio_line(over, ratios.front())
           + (ratios.size() > 1 ? fmt::format(" (and {} more{})", ratios.size() - 1, more) : "");
}

/// The case of a shape's verdict: its first differing ratio, its agreeing ones, or its open ones.
std::string shape_outcome_words(const std::string& over, const judge::ShapeOutcome& o) {
    switch (o.verdict()) {
    case Verdict::differs:
        return first_and_count(over, o.differs, "");
    case Verdict::agrees: {
        const std::string line = shape_ratio_line(over, *o.agreed);
        return o.tests == 1 ? line : fmt::format("each of the {} ratios; e.g. {}", o.tests, line);
    }
    default:
        return first_and_count(over, o.open, " undecided");
    }
}

/// Why a shape's verdict is what it is; for "rises, then levels off", at which level.
std::string shape_why(const judge::ShapeReading& s) {
    if (!s.levels_off) {
        return shape_outcome_words(s.over, s.outcome);
    }
    if (s.knee) {
        return fmt::format("levels off at {} {}: each of the {} steps up to it is ≥ {} and each of "
                           "the {} levels after it within {} of it; e.g. {}",
                           s.over, *s.knee, s.steps_up, format_number(s.at_least), s.levels_after,
                           band_text(s.band), shape_ratio_line(s.over, *s.outcome.agreed));
    }
    if (!s.likeliest) {
        std::vector<std::string> not_at;
        for (const auto& [level, ratio] : s.not_at) {
            not_at.push_back(fmt::format("not at {}: {}", level, shape_ratio_line(s.over, ratio)));
        }
        return fmt::format("it levels off at no level: {}", fmt::join(not_at, "; "));
    }
    return fmt::format("at {} (the likeliest level it levels off at): {}", *s.likeliest,
                       shape_outcome_words(s.over, s.outcome));
}

/// "10: 6301.9 → 20: 6990.2 tps; each over the one before: 1.109 (1.075 – 1.144)": a shape's
/// levels and the ratios between them.
std::string shape_measured(const ClaimResult& r) {
    const judge::ShapeReading& s = *r.shape;
    std::string levels;
    for (const auto& [value, figure] : r.series) {
        levels +=
            (levels.empty() ? "" : " → ")
            + fmt::format("{}: {}", value,
                          s.ratio_levels ? fmt::format("{:.3f}", figure) : format_number(figure));
    }
    std::string ratios;
    for (const judge::ShapeRatio& ratio : s.shown) {
        ratios += (ratios.empty() ? "" : ", ") + shape_ratio_figure(ratio);
    }
    std::string out =
        (s.ratio_levels ? "ratio " : "") + levels
        + (s.ratio_levels ? std::string() : unit_suffix(r.origin.metric))
        + fmt::format("; {} {}",
                      s.over_first ? "each over the first:" : "each over the one before:", ratios);
    if (s.knee) {
        out += fmt::format("; levels off at {}", *s.knee);
    }
    return out;
}

/// What more runs would do for an undecided claim: "; about 6 more runs of each cell would
/// likely decide it".
std::string more_runs_words(const ClaimResult& r) {
    const judge::Judgement& j = r.judgement;
    const bool shape = r.claim.kind == ClaimKind::shape || r.claim.kind == ClaimKind::ratio_along;
    const char* const whose = shape ? "each level" : whose_runs(r);
    switch (j.more_runs) {
    case judge::MoreRuns::give_an_interval:
        return shape ? fmt::format("; a shape needs {} runs at every level, the fewest here is {}",
                                   k_min_runs_for_interval, j.runs)
                     : fmt::format("; more runs of {} would give one", whose);
    case judge::MoreRuns::likely_decide:
        return fmt::format("; about {} more run{} of {} would likely decide it", j.more_runs_needed,
                           j.more_runs_needed == 1 ? "" : "s", whose);
    case judge::MoreRuns::would_not_decide:
        return fmt::format("; even {} more runs of {} would likely not decide it{}",
                           k_most_extra_runs, whose,
                           shape ? ""
                                 : ": the spread is too large for what the paper allows, or "
                                   "the figure sits on its edge");
    case judge::MoreRuns::unknown:
        break;
    }
    return {};
}

/// A `repeat` until decided: at which look the claim was decided, with what all its runs give
/// when an earlier look decided it, or that it stayed undecided; a declared count, with how many
/// runs, and which way fewer went when all of them overturned it.
std::string when_decided_words(const judge::Judgement& j) {
    if (j.cells.empty() || j.runs == 0 || j.looks <= 1) {
        return {};
    }
    const char* const whose = j.cells.size() > 1 ? "each cell" : "the cell";
    if (j.all_runs) {
        return "; decided at " + look_words(j)
               + (j.all_runs->verdict == j.verdict
                      ? fmt::format(" (judged again with all {}, the same)", j.all_runs->runs)
                      : fmt::format("; with all {} runs of {} it {}", j.all_runs->runs, whose,
                                    verdict_verb(j.all_runs->verdict)));
    }
    if (j.fewer_runs) {
        return j.fewer_runs->verdict == j.verdict
                   ? fmt::format(
                       "; decided with {} runs of {} (judged again with all {}, the same)",
                       j.fewer_runs->runs, whose, j.runs)
                   : fmt::format("; with {} runs of {} it {}, with all {} it {}",
                                 j.fewer_runs->runs, whose,
                                 j.fewer_runs->verdict == Verdict::agrees ? "agreed" : "differed",
                                 j.runs, verdict_verb(j.verdict));
    }
    if (j.basis == judge::Basis::exact) {
        return fmt::format("; decided with {} runs of {}", j.runs, whose);
    }
    if (judge::is_decided(j.verdict)) {
        return "; decided at " + look_words(j);
    }
    if (j.verdict == Verdict::inconclusive) {
        return (j.look >= j.looks ? "; still undecided at " : "; undecided at ") + look_words(j)
               + (j.look >= j.looks ? ", the most `repeat` allows" : "");
    }
    return {};
}

/// What the explanation rests on, measured: the `evidence` metric's mean in each cell the claim
/// read, in the claim's order ("wal.fpi 24019.0 / 3400.0 (means of the claim's cells)").
std::string evidence_text(const Claim& c, const StepData& step,
                          const std::vector<std::int64_t>& cells) {
    const MetricValues* m = c.evidence.empty() ? nullptr : find_metric(step, c.evidence);
    if (m == nullptr || cells.empty()) {
        return {};
    }
    std::vector<std::string> means;
    for (const std::int64_t cell : cells) {
        const auto it = m->by_cell.find(cell);
        if (it == m->by_cell.end() || it->second.empty()) {
            return {};
        }
        means.push_back(format_number(mean(values_of(it->second))));
    }
    const std::string_view name =
        std::string_view(c.evidence).starts_with(experiment::k_probe_prefix)
            ? std::string_view(c.evidence).substr(experiment::k_probe_prefix.size())
            : std::string_view(c.evidence);
    return fmt::format("{} {} ({} of the claim's cells)", name, fmt::join(means, " / "),
                       cells.size() > 1 ? "means" : "mean");
}

} // namespace

std::string unit_suffix(const MetricInfo& m) {
    if (m.unit.empty()) {
        return m.id == "tps" ? std::string(" tps") : std::string();
    }
    return " " + m.unit;
}

std::string look_words(const judge::Judgement& j) {
    return fmt::format("look {} of at most {}, with {} runs of {}", j.look, j.looks, j.runs,
                       j.cells.size() > 1 ? "each cell" : "the cell");
}

std::string look_summary(const judge::Judgement& j) {
    if (j.looks <= 1 || j.basis == judge::Basis::exact || j.verdict == Verdict::untestable) {
        return {};
    }
    return (is_decided(j.verdict) ? "decided at " : "undecided at ") + look_words(j);
}

void word_claims(std::vector<ClaimResult>& claims, const std::vector<StepData>& steps) {
    for (ClaimResult& r : claims) {
        r.paper = expected_text(r.claim);
        r.measured = measured_words(r);
        if (r.judgement.unjudged) {
            r.why = unjudged_words(*r.judgement.unjudged);
        }
        if (!r.claim.untestable.empty()) {
            continue;
        }
        if (r.decision) {
            r.why = decision_words(*r.decision);
        } else if (r.shape) {
            r.why = shape_why(*r.shape);
        }
        r.why += more_runs_words(r) + when_decided_words(r.judgement);
        const auto step = std::find_if(steps.begin(), steps.end(),
                                       [&](const StepData& s) { return s.key == r.claim.step; });
        if (step != steps.end()) {
            r.evidence = evidence_text(r.claim, *step, r.judgement.cells);
        }
    }
}

const char* verdict_name(Verdict v) {
    return util::name_of(k_verdicts, v);
}

std::string verdict_text(const ClaimResult& r) {
    switch (r.judgement.verdict) {
    case Verdict::agrees:
        return "agrees: " + r.why;
    case Verdict::differs: {
        std::string out = "differs: " + r.why;
        if (!r.claim.explanation.empty()) {
            out += ". " + r.claim.explanation;
            if (!r.evidence.empty()) {
                out += " (measured: " + r.evidence + ")";
            } else if (r.claim.hypothesis) {
                out += " (a hypothesis: not measured)";
            }
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

namespace {

/// Whose figure a claim's expected value is: the paper's (it names its `source`), the user's own
/// (no source), or pglab's own hypothesis.
enum class Claimant : std::uint8_t { paper, claimed, pglab };

Claimant claimant_of(const experiment::Claim& c) {
    return c.own ? Claimant::pglab : c.source.empty() ? Claimant::claimed : Claimant::paper;
}

} // namespace

Table claims_table(const std::vector<ClaimResult>& results) {
    // Each claimant's figures get a column of their own, shown when some claim has one, so that
    // nothing of pglab's or of the user's reads as the paper's.
    const std::vector<std::pair<Claimant, const char*>> columns = {
        {Claimant::paper, "paper"},
        {Claimant::claimed, "claimed"},
        {Claimant::pglab, "pglab's own"}};
    std::vector<Claimant> shown;
    for (const auto& column : columns) {
        // Named, not bound: a lambda cannot capture structured bindings (clang, C++20).
        const Claimant who = column.first;
        if (std::any_of(results.begin(), results.end(),
                        [&](const ClaimResult& r) { return claimant_of(r.claim) == who; })) {
            shown.push_back(who);
        }
    }
    Table t;
    t.header = {"claim"};
    for (const auto& [who, title] : columns) {
        if (std::find(shown.begin(), shown.end(), who) != shown.end()) {
            t.header.emplace_back(title);
        }
    }
    t.header.insert(t.header.end(), {"measured (95% CI)", "verdict"});
    t.numeric.assign(t.header.size(), false);
    for (const auto& r : results) {
        std::string claim = r.claim.text;
        if (!r.claim.source.empty()) {
            claim += " (" + r.claim.source + ")";
        }
        const std::string expected = r.paper.empty() ? "-" : r.paper;
        std::vector<std::string> row = {claim};
        for (const Claimant who : shown) {
            row.push_back(claimant_of(r.claim) == who ? expected : "-");
        }
        row.insert(row.end(), {r.measured.empty() ? "-" : r.measured, verdict_text(r)});
        t.rows.push_back(std::move(row));
    }
    return t;
}

} // namespace pglab::lab::report
