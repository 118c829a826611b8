// Claim evaluation: cells named by selectors, means and their intervals from statistics.hpp
// (Welch's Fieller interval for ratios), and the verdict rules of docs/experiments.md.
#include "lab/report/claims.hpp"

#include "lab/report/cells.hpp"
#include "lab/report/claim_comparisons.hpp"
#include "lab/report/claim_evidence.hpp"
#include "lab/report/claim_shapes.hpp"
#include "lab/report/compare.hpp"
#include "lab/report/number_format.hpp"
#include "lab/report/statistics.hpp"
#include "lab/report/verdict_words.hpp"
#include "util/named_values.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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

/// What a shape allows, as the file gave it: " (±5%)", " (steps ≥ +10%)", " (steps ≥ +10%,
/// then ±5%)".
std::string shape_band_text(const Claim& c) {
    const std::string band = "±" + format_percent(c.tolerance);
    const std::string step =
        fmt::format("steps {} {}{}", c.shape == "decreasing" ? "≤" : "≥",
                    c.shape == "decreasing" ? "−" : "+", format_percent(c.min_step));
    if (c.shape == "flat") {
        return " (" + band + ")";
    }
    if (c.shape == "levels_off") {
        return " (" + step + ", then " + band + ")";
    }
    return " (" + step + ")";
}

/// What the claim tests, built from its figures: "ratio 0.553 (±10%)", "≥ 1", "flat along
/// clients (±10%)".
std::string tested_text(const Claim& c) {
    std::string out;
    if (c.kind == ClaimKind::shape || c.kind == ClaimKind::ratio_along) {
        const std::string shape = c.shape == "levels_off" ? "rising, then level," : c.shape;
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

void evaluate_ratio(const Claim& c, const ResultsDir& results, const MetricValues& m,
                    ClaimResult& r) {
    CellValues a;
    CellValues b;
    if (!read_cell_pair(c, results, m, a, b, r)) {
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
    // Runs alike on both sides are their value itself (statistics.hpp), not a mean of anything.
    const bool several = sa.linear.variance > 0 || sb.linear.variance > 0;
    const judge::LookPlan plan = look_plan_of(results);
    std::function<Evidence(size_t)> after = [&](size_t extra) {
        return ratio_evidence(sa, sb, extra, plan);
    };
    Evidence e = claim_ratio_evidence(c, sa, sb, plan);
    std::string quotient =
        fmt::format("{} / {}{}{}", format_number(figure_a), format_number(figure_b),
                    unit_suffix(m.info), several && typical_pair ? mean_words(sa) : "");
    // Runs made in rounds are judged in pairs, one of each cell per round: drift between rounds
    // moves both runs of a round, and cancels in their ratio.
    const PairedRuns pairs = paired_runs(results, m, static_cast<std::int64_t>(a.cell->index),
                                         static_cast<std::int64_t>(b.cell->index));
    const bool paired =
        !c.exact && several && sa.log && sb.log && pairs.a.size() >= k_min_runs_for_interval;
    if (paired) {
        std::vector<double> differences;
        for (std::size_t i = 0; i < pairs.a.size(); ++i) {
            differences.push_back(std::log(pairs.a[i]) - std::log(pairs.b[i]));
        }
        const Moments d = moments_of(differences);
        after = [d, plan](size_t extra) { return paired_ratio_evidence(d, extra, plan); };
        e = after(0);
        quotient = fmt::format("{} / {}{}, geometric means of {} rounds, judged in pairs",
                               format_number(typical_value(sample_of(pairs.a))),
                               format_number(typical_value(sample_of(pairs.b))),
                               unit_suffix(m.info), pairs.a.size());
        r.judgement.runs = pairs.a.size();
    }
    hold(e, paired ? judge::Basis::paired : judge::Basis::independent, r.judgement);
    r.measured = quotient_text(e, quotient, {a.values, b.values});
    conclude(c, e, after, paired ? "both cells, in pairs," : "each cell", r);
}

void evaluate_value(const Claim& c, const ResultsDir& results, const MetricValues& m,
                    ClaimResult& r) {
    const CellValues a = values_of(c.cell, results, m);
    if (!a.problem.empty()) {
        r.why = a.problem;
        return;
    }
    const Sample& sample = a.sample;
    r.judgement.cells = {static_cast<std::int64_t>(a.cell->index)};
    r.judgement.runs = a.values.size();
    const judge::LookPlan plan = look_plan_of(results);
    const auto after = [&](size_t extra) { return value_evidence(sample, extra, plan); };
    Evidence e = after(0);
    mark_exact(c, e);
    if (e.exact) { // a count: its value as counted, not through logarithms
        e.value = sample.linear.mean;
    }
    hold(e, judge::Basis::independent, r.judgement);
    const std::string figure = format_number(e.value) + unit_suffix(m.info);
    const std::string typical = a.values.size() > 1 ? mean_word(sample) : "";
    r.measured = e.ci95 ? fmt::format("{} ({}95% CI {})", figure, typical, format_interval(*e.ci95))
                        : fmt::format("{} ({}{})", figure, typical, few_runs_text({a.values}));
    conclude(c, e, after, "the cell", r);
}

bool is_decided(Verdict v) {
    return v == Verdict::agrees || v == Verdict::differs;
}

/// "agrees", "differs", "is inconclusive": what a claim does, said of all its runs.
const char* verdict_verb(Verdict v) {
    return v == Verdict::agrees ? "agrees" : v == Verdict::differs ? "differs" : "is inconclusive";
}

/// A `repeat` until decided, judged on all the runs: at which look it was decided, or that it
/// stayed undecided.
void say_when_decided(ClaimResult& r) {
    const judge::Judgement& j = r.judgement;
    if (j.cells.empty() || j.runs == 0) {
        return;
    }
    if (j.basis == judge::Basis::exact) {
        r.why += fmt::format("; decided with {} runs of {}", j.runs,
                             j.cells.size() > 1 ? "each cell" : "the cell");
    } else if (is_decided(j.verdict)) {
        r.why += "; decided at " + look_words(j);
    } else if (j.verdict == Verdict::inconclusive && j.look >= j.looks) {
        r.why += "; still undecided at " + look_words(j) + ", the most `repeat` allows";
    } else if (j.verdict == Verdict::inconclusive) {
        r.why += "; undecided at " + look_words(j);
    }
}

/// A claim decided at an earlier look than all its runs are: the verdict is that look's (the
/// looks' boundaries hold for stopping at the first that decides; later rounds ran for another
/// claim's sake), and what all the runs give is said beside it.
void say_decided_before(const ClaimResult& all, ClaimResult& first) {
    const judge::Judgement& j = first.judgement;
    first.why += "; decided at " + look_words(j);
    if (all.judgement.verdict == j.verdict) {
        first.why += fmt::format(" (judged again with all {}, the same)", all.judgement.runs);
        return;
    }
    first.why += fmt::format("; with all {} runs of {} it {}", all.judgement.runs,
                             j.cells.size() > 1 ? "each cell" : "the cell",
                             verdict_verb(all.judgement.verdict));
}

/// A count declared exact that fewer runs decided: no look spends an error rate on it (its value
/// is a fact), so all its runs judge it, and an earlier verdict they overturn is said.
void say_counted_before(const ClaimResult& first, ClaimResult& all) {
    const judge::Judgement& j = first.judgement;
    const char* const whose = j.cells.size() > 1 ? "each cell" : "the cell";
    if (all.judgement.verdict == j.verdict) {
        all.why += fmt::format("; decided with {} runs of {} (judged again with all {}, the same)",
                               j.runs, whose, all.judgement.runs);
        return;
    }
    all.why += fmt::format("; with {} runs of {} it {}, with all {} it {}", j.runs, whose,
                           j.verdict == Verdict::agrees ? "agreed" : "differed", all.judgement.runs,
                           verdict_verb(all.judgement.verdict));
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
        means.push_back(format_number(mean(it->second)));
    }
    const std::string_view name =
        std::string_view(c.evidence).starts_with(experiment::k_probe_prefix)
            ? std::string_view(c.evidence).substr(experiment::k_probe_prefix.size())
            : std::string_view(c.evidence);
    return fmt::format("{} {} ({} of the claim's cells)", name, fmt::join(means, " / "),
                       cells.size() > 1 ? "means" : "mean");
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
    } else {
        switch (c.kind) {
        case ClaimKind::ratio:
            evaluate_ratio(c, results, *m, r);
            break;
        case ClaimKind::value:
            evaluate_value(c, results, *m, r);
            break;
        case ClaimKind::shape:
        case ClaimKind::ratio_along:
            evaluate_shape(c, results, *m, r);
            break;
        case ClaimKind::ratio_of_ratios:
            evaluate_ratio_of_ratios(c, results, *m, r);
            break;
        case ClaimKind::spread:
            evaluate_spread(c, results, *m, r);
            break;
        }
        r.evidence = evidence_text(c, *step, r.judgement.cells);
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

/// Each claim judged at the first look that decided it with fewer runs than it has now: `pglab
/// run` judges the claims after the first `repeat` rounds and after each round it adds, so they
/// are judged here on the runs of the rounds up to each of those in turn (each round's figures
/// gathered once for every claim). None for a claim no earlier look decided.
std::vector<std::optional<ClaimResult>> first_decided(const std::vector<ClaimResult>& judged,
                                                      const ResultsDir& results) {
    std::vector<std::optional<ClaimResult>> first(judged.size());
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
            ClaimResult r = evaluate_claim(judged[i].claim, earlier, steps);
            if (is_decided(r.judgement.verdict) && r.judgement.runs < judged[i].judgement.runs) {
                first[i] = std::move(r);
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
    std::vector<std::optional<ClaimResult>> first = first_decided(out, results);
    for (size_t i = 0; i < out.size(); ++i) {
        if (!out[i].claim.untestable.empty()) {
            continue;
        }
        if (first[i] && first[i]->judgement.basis == judge::Basis::exact) {
            say_counted_before(*first[i], out[i]);
        } else if (first[i]) {
            say_decided_before(out[i], *first[i]);
            out[i] = std::move(*first[i]);
        } else {
            say_when_decided(out[i]);
        }
    }
    return out;
}

std::vector<std::size_t> cells_of_undecided_claims(const ResultsDir& results) {
    const ExperimentClaims claims = read_claims(results);
    std::set<std::size_t> cells;
    // A claim an earlier look decided stays decided: its boundaries hold for stopping there.
    for (const ClaimResult& r :
         evaluate_claims(claims.claims, results, collect_steps(results, /*cores=*/0))) {
        if (r.judgement.verdict == Verdict::inconclusive) {
            for (const std::int64_t c : r.judgement.cells) {
                cells.insert(static_cast<std::size_t>(c));
            }
        }
    }
    return {cells.begin(), cells.end()};
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
