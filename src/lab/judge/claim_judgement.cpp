// Claim judging: cells named by selectors, means and their intervals from statistics.hpp (Welch's
// Fieller interval for ratios), the verdict rules of docs/experiments.md, and the looks of a
// `repeat` until decided (sequential.hpp). The report says the result (lab/report/claim_words.hpp).
#include "lab/judge/claim_judgement.hpp"

#include "lab/judge/claim_comparisons.hpp"
#include "lab/judge/claim_evidence.hpp"
#include "lab/judge/claim_shapes.hpp"
#include "lab/judge/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <utility>

namespace pglab::lab::judge {

using store::FinishedRun;
using store::ResultsDir;

namespace {

using experiment::Claim;
using experiment::ClaimKind;

/// A ratio whose baseline is 0 in every run: measured, and 0, so the ratio has no finite value,
/// no interval decides it, and more runs like these would not either (no cells for `until` to
/// run again). Not untestable: the claim was tested, and its figures are known.
void judge_over_zero(const Claim& c, const MetricValues& m, double figure_a, ClaimJudgement& r) {
    r.judgement.verdict = Verdict::inconclusive;
    r.judgement.cells.clear();
    r.judgement.unjudged = Unjudged{.why = Unjudged::Why::over_zero,
                                    .subject = c.baseline.text,
                                    .metric = m.info.title,
                                    .other = c.cell.text,
                                    .figure = figure_a};
}

void evaluate_ratio(const Claim& c, const ResultsDir& results, const MetricValues& m,
                    const CellPair& cells, ClaimJudgement& r) {
    const CellValues& a = cells.a;
    const CellValues& b = cells.b;
    const Sample& sa = a.sample;
    const Sample& sb = b.sample;
    // Both by their geometric means, a proportion's by the mean of its log-odds; else both by
    // their means.
    const bool typical_pair = (sa.log && sb.log) || (sa.logit && sb.logit);
    const double figure_a = typical_pair ? typical_value(sa) : sa.linear.mean;
    const double figure_b = typical_pair ? typical_value(sb) : sb.linear.mean;
    if (figure_b == 0) {
        judge_over_zero(c, m, figure_a, r);
        return;
    }
    // Runs alike on both sides are their value itself (statistics.hpp), not a mean of anything.
    const bool several = sa.linear.variance > 0 || sb.linear.variance > 0;
    const LookPlan plan = look_plan_of(results);
    std::function<Evidence(size_t)> after = [&](size_t extra) {
        return ratio_evidence(sa, sb, extra, plan);
    };
    Evidence e = claim_ratio_evidence(c, sa, sb, plan);
    FigureOrigin& o = r.origin;
    o = FigureOrigin{.kind = FigureOrigin::Kind::ratio,
                     .metric = m.info,
                     .log = typical_pair && sa.log.has_value(),
                     .logit = typical_pair && sa.logit.has_value(),
                     .several = several,
                     .numerator = figure_a,
                     .denominator = figure_b,
                     .runs = {a.values, b.values}};
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
        o.numerator = typical_value(sample_of(pairs.a));
        o.denominator = typical_value(sample_of(pairs.b));
        o.rounds = pairs.a.size();
        r.judgement.runs = pairs.a.size();
    }
    hold(e, paired ? Basis::paired : Basis::independent, r.judgement);
    conclude(c, e, after, r);
}

void evaluate_value(const Claim& c, const ResultsDir& results, const MetricValues& m,
                    ClaimJudgement& r) {
    const CellValues a = values_of(c.cell, results, m);
    if (a.problem) {
        r.judgement.unjudged = a.problem;
        return;
    }
    const Sample& sample = a.sample;
    r.judgement.cells = {static_cast<std::int64_t>(a.cell->index)};
    r.judgement.runs = a.values.size();
    const LookPlan plan = look_plan_of(results);
    const auto after = [&](size_t extra) { return value_evidence(sample, extra, plan); };
    Evidence e = after(0);
    mark_exact(c, e);
    if (e.exact) { // a count: its value as counted, not through logarithms
        e.value = sample.linear.mean;
    }
    hold(e, Basis::independent, r.judgement);
    r.origin = FigureOrigin{.kind = FigureOrigin::Kind::value,
                            .metric = m.info,
                            .log = sample.log.has_value(),
                            .logit = sample.logit.has_value(),
                            .several = a.values.size() > 1,
                            .numerator = e.value,
                            .runs = {a.values}};
    conclude(c, e, after, r);
}

} // namespace

ClaimJudgement judge_claim(const Claim& c, const ResultsDir& results,
                           const std::vector<StepData>& steps) {
    ClaimJudgement r;
    r.claim = c;
    using Why = Unjudged::Why;
    if (!c.untestable.empty()) {
        r.judgement.unjudged = Unjudged{.why = Why::declared, .subject = c.untestable};
        return r;
    }
    const auto step = std::find_if(steps.begin(), steps.end(),
                                   [&](const StepData& s) { return s.key == c.step; });
    const MetricValues* m = step != steps.end() ? find_metric(*step, c.metric) : nullptr;
    if (step == steps.end()) {
        r.judgement.unjudged = Unjudged{.why = Why::no_step, .subject = c.step};
    } else if (m == nullptr || m->by_cell.empty()) {
        r.judgement.unjudged =
            Unjudged{.why = Why::no_metric, .subject = c.step, .metric = c.metric};
    } else {
        switch (c.kind) {
        case ClaimKind::ratio:
        case ClaimKind::spread:
            if (const std::optional<CellPair> cells = read_cell_pair(c, results, *m, r)) {
                if (c.kind == ClaimKind::ratio) {
                    evaluate_ratio(c, results, *m, *cells, r);
                } else {
                    evaluate_spread(c, results, *m, *cells, r);
                }
            }
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
        }
    }
    return r;
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

} // namespace pglab::lab::judge
