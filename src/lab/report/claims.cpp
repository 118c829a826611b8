// Claim evaluation: cells named by selectors, means and their intervals from statistics.hpp
// (Welch's Fieller interval for ratios), and the verdict rules of docs/experiments.md.
#include "lab/report/claims.hpp"

#include "lab/report/cells.hpp"
#include "lab/report/compare.hpp"
#include "lab/report/number_format.hpp"
#include "lab/report/statistics.hpp"
#include "lab/report/verdict_rules.hpp"
#include "util/named_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <set>
#include <span>
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

/// Values of `metric` in the one cell that `selector` names; an error sentence otherwise.
struct CellValues {
    const Cell* cell = nullptr;
    std::vector<double> values;
    Sample sample; ///< `values` as intervals read them (sample_in())
    std::string problem;
};

CellValues values_of(const experiment::CellSelector& selector, const ResultsDir& results,
                     const MetricValues& metric) {
    CellValues out;
    const std::string& selector_text = selector.text;
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
    out.sample = sample_in(metric, out.cell->index);
    return out;
}

std::string unit_suffix(const MetricInfo& m) {
    if (m.unit.empty()) {
        return m.id == "tps" ? std::string(" tps") : std::string();
    }
    return " " + m.unit;
}

/// What a cell's typical value is, before its interval: "geometric mean; ", "mean of the
/// log-odds; ", or "" for a plain mean.
std::string mean_word(const Sample& s) {
    if (s.logit) {
        return "mean of the log-odds; ";
    }
    return s.log ? "geometric mean; " : "";
}

/// The same for a quotient of two cells' typical values.
const char* mean_words(const Sample& s) {
    return s.logit ? ", means of the log-odds" : s.log ? ", geometric means" : "";
}

std::string interval_text(const Interval& ci) {
    return ci.bounded ? " (95% CI " + format_interval(ci) + ")" : " (95% CI unbounded)";
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

/// Marks `e` exact when the claim declares the metric so (a count the runs reproduce to the
/// unit: one run decides). Runs that merely came out equal are not exact: their interval is the
/// point they share, from 3 runs on, like any other.
void mark_exact(const Claim& c, Evidence& e) {
    if (c.exact) {
        e.exact = true;
        e.exact_reason = "declared exact";
    }
}

/// The evidence of `a` over `b` for claim `c`; a declared exact figure is the ratio of the counts
/// as counted, not through logarithms.
Evidence claim_ratio_evidence(const Claim& c, const Sample& a, const Sample& b, size_t extra = 0) {
    Evidence e = ratio_evidence(a, b, extra);
    mark_exact(c, e);
    if (e.exact) {
        e.value = a.linear.mean / b.linear.mean;
    }
    return e;
}

/// The verdict of the figure in `e` against the claim (verdict_rules.hpp); when the runs cannot
/// tell yet, how many more would likely decide it (`more_runs` gives the evidence after that
/// many more runs of `whose`).
void conclude(const Claim& c, const Evidence& e, const std::function<Evidence(size_t)>& more_runs,
              const char* whose, ClaimResult& r) {
    const Allowed allowed = allowed_by(c);
    const Decision d = decide(allowed, e);
    r.verdict = d.verdict;
    r.why = d.why;
    if (d.verdict != Verdict::inconclusive || e.exact) {
        return;
    }
    if (e.runs <= 1) {
        r.why += fmt::format("; more runs of {} would give one", whose);
    } else if (const auto extra = extra_runs_to_decide(allowed, more_runs)) {
        r.why += fmt::format("; about {} more run{} of {} would likely decide it", *extra,
                             *extra == 1 ? "" : "s", whose);
    } else {
        r.why += fmt::format("; even {} more runs of {} would likely not decide it: the spread is "
                             "too large for what the paper allows, or the figure sits on its edge",
                             k_most_extra_runs, whose);
    }
}

/// Where the runs are too few for an interval, the runs themselves: "one run: no interval",
/// "runs: 1330.1, 1348.3 / 1600.2, 1617.0; no interval under 3 runs".
std::string few_runs_text(std::initializer_list<std::span<const double>> samples) {
    if (std::all_of(samples.begin(), samples.end(),
                    [](std::span<const double> v) { return v.size() <= 1; })) {
        return "one run: no interval";
    }
    std::string out = "runs: ";
    const char* cell_sep = "";
    for (const auto& values : samples) {
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

void evaluate_ratio(const Claim& c, const ResultsDir& results, const MetricValues& m,
                    ClaimResult& r) {
    const CellValues a = values_of(c.cell, results, m);
    const CellValues b = values_of(c.baseline, results, m);
    if (!a.problem.empty() || !b.problem.empty()) {
        r.why = !a.problem.empty() ? a.problem : b.problem;
        return;
    }
    const Sample& sa = a.sample;
    const Sample& sb = b.sample;
    // Both by their geometric means, a proportion's by the mean of its log-odds; else both by
    // their means.
    const bool typical_pair = (sa.log && sb.log) || (sa.logit && sb.logit);
    const double figure_a = typical_pair ? typical_value(sa) : sa.linear.mean;
    const double figure_b = typical_pair ? typical_value(sb) : sb.linear.mean;
    if (figure_b == 0) {
        r.why = fmt::format("{} is 0 in \"{}\": no ratio", m.info.title, c.baseline.text);
        return;
    }
    r.cells = {static_cast<std::int64_t>(a.cell->index), static_cast<std::int64_t>(b.cell->index)};
    r.runs = std::min(a.values.size(), b.values.size());
    const auto after = [&](size_t extra) { return ratio_evidence(sa, sb, extra); };
    const Evidence e = claim_ratio_evidence(c, sa, sb);
    r.value = e.value;
    r.ci = e.ci95;
    r.ci90 = e.ci90;
    // Runs alike on both sides are their value itself (statistics.hpp), not a mean of anything.
    const bool several = sa.linear.variance > 0 || sb.linear.variance > 0;
    const std::string quotient =
        fmt::format("{} / {}{}{}", format_number(figure_a), format_number(figure_b),
                    unit_suffix(m.info), several && typical_pair ? mean_words(sa) : "");
    r.measured = e.ci95 ? fmt::format("{:.3f}{} = {}", e.value, interval_text(*e.ci95), quotient)
                        : fmt::format("{:.3f} = {} ({})", e.value, quotient,
                                      few_runs_text({a.values, b.values}));
    conclude(c, e, after, "each cell", r);
}

void evaluate_value(const Claim& c, const ResultsDir& results, const MetricValues& m,
                    ClaimResult& r) {
    const CellValues a = values_of(c.cell, results, m);
    if (!a.problem.empty()) {
        r.why = a.problem;
        return;
    }
    const Sample& sample = a.sample;
    r.cells = {static_cast<std::int64_t>(a.cell->index)};
    r.runs = a.values.size();
    const auto after = [&](size_t extra) { return value_evidence(sample, extra); };
    Evidence e = after(0);
    mark_exact(c, e);
    if (e.exact) { // a count: its value as counted, not through logarithms
        e.value = sample.linear.mean;
    }
    r.value = e.value;
    r.ci = e.ci95;
    r.ci90 = e.ci90;
    const std::string figure = format_number(e.value) + unit_suffix(m.info);
    const std::string typical = a.values.size() > 1 ? mean_word(sample) : "";
    r.measured = e.ci95 ? fmt::format("{} ({}95% CI {})", figure, typical, format_interval(*e.ci95))
                        : fmt::format("{} ({}{})", figure, typical, few_runs_text({a.values}));
    conclude(c, e, after, "the cell", r);
}

/// When `pglab run` first judged a claim decided: with how many runs of each of its cells, and
/// which way.
struct FirstDecided {
    size_t runs = 0;
    Verdict verdict = Verdict::inconclusive;
};

bool is_decided(Verdict v) {
    return v == Verdict::agrees || v == Verdict::differs;
}

/// A `repeat` until decided: after how many runs the claim was decided, or that it stayed
/// undecided at the most runs the file allows. `first`: when `pglab run` first found it decided,
/// with fewer runs than it has now (a later round ran for another claim's sake).
void say_when_decided(std::int64_t most, std::optional<FirstDecided> first, ClaimResult& r) {
    if (r.cells.empty() || r.runs == 0) {
        return;
    }
    const char* const whose = r.cells.size() > 1 ? "each cell" : "the cell";
    if (first && first->verdict == r.verdict) {
        r.why += fmt::format("; decided with {} runs of {} (judged again with all {}, the same)",
                             first->runs, whose, r.runs);
    } else if (first) { // more runs changed the verdict
        const auto now = r.verdict == Verdict::agrees    ? "agrees"
                         : r.verdict == Verdict::differs ? "differs"
                                                         : "is inconclusive";
        r.why +=
            fmt::format("; with {} runs of {} it {}, with all {} it {}", first->runs, whose,
                        first->verdict == Verdict::agrees ? "agreed" : "differed", r.runs, now);
    } else if (is_decided(r.verdict)) {
        r.why += fmt::format("; decided with {} runs of {}", r.runs, whose);
    } else if (r.verdict == Verdict::inconclusive && static_cast<std::int64_t>(r.runs) >= most) {
        r.why += fmt::format("; still undecided at {} runs of {}, the most `repeat` allows", r.runs,
                             whose);
    }
}

/// One level of a shape claim: the value of `over` and the runs of its cell.
struct Level {
    std::string value;
    const Cell* cell = nullptr;
    Sample sample;
};

/// The levels along `over` of the cells the claim's selector names, from `from` on; an error
/// sentence when a level has no measured run or there are fewer than two.
std::vector<Level> shape_levels(const Claim& c, const ResultsDir& results, const MetricValues& m,
                                std::string& problem) {
    std::vector<Level> levels;
    bool started = c.from.empty();
    for (const auto& cell : results.cells) {
        const experiment::Scalar* v = cell.find(c.over);
        if (!cell_matches(cell, c.cell) || v == nullptr) {
            continue;
        }
        started = started || v->text() == c.from;
        if (!started) {
            continue;
        }
        const auto it = m.by_cell.find(static_cast<std::int64_t>(cell.index));
        if (it == m.by_cell.end() || it->second.empty()) {
            problem = fmt::format("no measured run of \"{}\"", cell.label);
            return {};
        }
        levels.push_back(Level{v->text(), &cell, sample_in(m, cell.index)});
    }
    if (levels.size() < 2) {
        problem = fmt::format("fewer than two cells along {}", c.over);
        return {};
    }
    return levels;
}

/// A shape as tests of ratios: "flat within ±b", each level over the first within 1 ± b;
/// "increasing", each level over the one before at least 1 + min_step; "decreasing", at most
/// 1 - min_step. Each ratio is judged as a ratio claim is (verdict_rules.hpp): the shape agrees
/// when every one agrees, differs when one differs, and is left open otherwise.
void evaluate_shape(const Claim& c, const ResultsDir& results, const MetricValues& m,
                    ClaimResult& r) {
    std::string problem;
    const std::vector<Level> levels = shape_levels(c, results, m, problem);
    if (levels.empty()) {
        r.why = problem;
        return;
    }
    const bool flat = c.shape == "flat";
    Allowed allowed;
    if (flat) {
        allowed.band = Interval{1.0 - c.tolerance, 1.0 + c.tolerance, true};
        allowed.band_text = fmt::format("1 ± {:.0f}%", c.tolerance * 100);
    } else if (c.shape == "increasing") {
        allowed.at_least = 1.0 + c.min_step;
    } else {
        allowed.at_most = 1.0 - c.min_step;
    }
    r.runs = levels.front().sample.linear.n;
    std::string joined;
    for (const Level& l : levels) {
        r.cells.push_back(static_cast<std::int64_t>(l.cell->index));
        r.runs = std::min(r.runs, l.sample.linear.n);
        r.series.emplace_back(l.value, typical_value(l.sample));
        joined += (joined.empty() ? "" : " → ")
                  + fmt::format("{}: {}", l.value, format_number(typical_value(l.sample)));
    }
    r.measured = joined + unit_suffix(m.info);
    std::string ratios; // each ratio judged, with its 95% interval

    // Each ratio: a level over the first (flat), or over the one before (a trend).
    std::vector<std::string> differs;
    std::vector<std::string> open;
    size_t most_extra = 0;    // runs of each level that would likely decide the open ratios
    bool undecidable = false; // one would likely stay open even after k_most_extra_runs more
    std::string agreed;
    for (size_t i = 1; i < levels.size(); ++i) {
        const Level& a = levels[i];
        const Level& b = flat ? levels.front() : levels[i - 1];
        const std::string what = fmt::format("{} {} over {}", c.over, a.value, b.value);
        if (typical_value(b.sample) == 0) {
            open.push_back(what + ": 0 in the denominator, no ratio");
            undecidable = true;
            continue;
        }
        const auto after = [&](size_t extra) { return ratio_evidence(a.sample, b.sample, extra); };
        const Evidence e = claim_ratio_evidence(c, a.sample, b.sample);
        const Decision d = decide(allowed, e);
        const std::string line = fmt::format("{} is {:.3f}: {}", what, e.value, d.why);
        ratios += fmt::format("{}{:.3f}{}", ratios.empty() ? "" : ", ", e.value,
                              e.ci95 && !e.exact ? " (" + format_interval(*e.ci95) + ")" : "");
        if (d.verdict == Verdict::differs) {
            differs.push_back(line);
        } else if (d.verdict == Verdict::inconclusive) {
            open.push_back(line);
            const auto extra = e.runs >= k_min_runs_for_interval
                                   ? extra_runs_to_decide(allowed, after)
                                   : std::optional<size_t>(k_min_runs_for_interval - e.runs);
            if (extra) {
                most_extra = std::max(most_extra, *extra);
            } else {
                undecidable = true;
            }
        } else if (agreed.empty()) {
            agreed = line;
        }
    }
    r.measured +=
        fmt::format("; {} {}", flat ? "each over the first:" : "each over the one before:", ratios);
    if (!differs.empty()) {
        r.verdict = Verdict::differs;
        r.why = differs.front()
                + (differs.size() > 1 ? fmt::format(" (and {} more)", differs.size() - 1) : "");
        return;
    }
    if (!open.empty()) {
        r.verdict = Verdict::inconclusive;
        r.why = open.front()
                + (open.size() > 1 ? fmt::format(" (and {} more undecided)", open.size() - 1) : "");
        if (r.runs < k_min_runs_for_interval && !c.exact) {
            r.why += fmt::format("; a shape needs {} runs at every level, the fewest here is {}",
                                 k_min_runs_for_interval, r.runs);
        } else if (!undecidable) {
            r.why += fmt::format("; about {} more run{} of each level would likely decide it",
                                 most_extra, most_extra == 1 ? "" : "s");
        } else {
            r.why += fmt::format("; even {} more runs of each level would likely not decide it",
                                 k_most_extra_runs);
        }
        return;
    }
    r.verdict = Verdict::agrees;
    r.why = levels.size() == 2
                ? agreed
                : fmt::format("each of the {} ratios; e.g. {}", levels.size() - 1, agreed);
}

ClaimResult evaluate_claim(const Claim& c, const ResultsDir& results,
                           const std::vector<StepData>& steps) {
    ClaimResult r;
    r.claim = c;
    r.paper = expected_text(c);
    if (!c.untestable.empty()) {
        r.why = c.untestable;
        return r;
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
    return r;
}

/// The claims judged on the runs as they are, without saying when they were decided.
std::vector<ClaimResult> judge_claims(const std::vector<Claim>& claims, const ResultsDir& results,
                                      const std::vector<StepData>& steps) {
    std::vector<ClaimResult> out;
    out.reserve(claims.size());
    for (const auto& c : claims) {
        out.push_back(evaluate_claim(c, results, steps));
    }
    return out;
}

/// When `pglab run` first judged each claim decided: it judges the claims after the first
/// `repeat` rounds and after each round it adds, so they are judged here on the runs of the
/// rounds up to each of those in turn (each round's figures gathered once for every claim).
/// None for a claim that only all the runs decide.
std::vector<std::optional<FirstDecided>> first_decided(const std::vector<ClaimResult>& judged,
                                                       const ResultsDir& results) {
    std::vector<std::optional<FirstDecided>> first(judged.size());
    if (!results.plan || !results.plan->repeat) {
        return first;
    }
    std::uint32_t last = 0;
    for (const FinishedRun& f : results.runs) {
        last = std::max(last, f.record.round);
    }
    for (auto round = static_cast<std::uint32_t>(*results.plan->repeat); round < last; ++round) {
        ResultsDir earlier = results;
        std::erase_if(earlier.runs, [&](const FinishedRun& f) { return f.record.round > round; });
        const std::vector<StepData> steps = collect_steps(earlier, /*cores=*/0);
        for (size_t i = 0; i < judged.size(); ++i) {
            if (first[i] || !judged[i].claim.untestable.empty()) {
                continue;
            }
            const ClaimResult r = evaluate_claim(judged[i].claim, earlier, steps);
            if (is_decided(r.verdict)) {
                first[i] = FirstDecided{r.runs, r.verdict};
            }
        }
    }
    return first;
}

} // namespace

std::vector<ClaimResult> evaluate_claims(const std::vector<Claim>& claims,
                                         const ResultsDir& results,
                                         const std::vector<StepData>& steps) {
    std::vector<ClaimResult> out = judge_claims(claims, results, steps);
    if (!results.plan || !results.plan->repeat_max) {
        return out;
    }
    const std::vector<std::optional<FirstDecided>> first = first_decided(out, results);
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i].claim.untestable.empty()) {
            const bool earlier = first[i] && first[i]->runs < out[i].runs;
            say_when_decided(*results.plan->repeat_max, earlier ? first[i] : std::nullopt, out[i]);
        }
    }
    return out;
}

std::vector<std::size_t> cells_of_undecided_claims(const ResultsDir& results) {
    const ExperimentClaims claims = read_claims(results);
    std::set<std::size_t> cells;
    // Only the verdicts: when each claim was decided is the report's to say.
    for (const ClaimResult& r :
         judge_claims(claims.claims, results, collect_steps(results, /*cores=*/0))) {
        if (r.verdict == Verdict::inconclusive) {
            for (const std::int64_t c : r.cells) {
                cells.insert(static_cast<std::size_t>(c));
            }
        }
    }
    return {cells.begin(), cells.end()};
}

const char* verdict_name(Verdict v) {
    return util::name_of(k_verdicts, v);
}

std::string verdict_text(const ClaimResult& r) {
    switch (r.verdict) {
    case Verdict::agrees:
        return "agrees: " + r.why;
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
    if (plan_has_claims(results)) {
        out.question = results.plan->question.value_or("");
        out.claims = *results.plan->claims;
        return out;
    }
    out.problem = results.experiment_problem;
    if (results.experiment) {
        out.question = results.experiment->question;
        out.claims = results.experiment->claims;
    }
    return out;
}

} // namespace pglab::lab::report
