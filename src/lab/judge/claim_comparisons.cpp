// A ratio of ratios is a product of four typical values read on the log scale (Welch–
// Satterthwaite over the four; runs made in rounds, round by round); a ratio of spreads is the
// ratio of two standard deviations on the scale the runs are read on, with the F distribution's
// interval. Both are judged as a ratio claim is.
#include "lab/judge/claim_comparisons.hpp"

#include "lab/judge/claim_evidence.hpp"
#include "lab/judge/statistics.hpp"
#include "lab/judge/verdict_rules.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace pglab::lab::judge {

using store::Cell;
using store::ResultsDir;

using experiment::Claim;

void evaluate_ratio_of_ratios(const Claim& c, const ResultsDir& results, const MetricValues& m,
                              ClaimJudgement& r) {
    const std::array<CellValues, 4> cells = {
        values_of(c.cell, results, m), values_of(c.baseline, results, m),
        values_of(c.divided_by_cell, results, m), values_of(c.divided_by_baseline, results, m)};
    for (const CellValues& v : cells) {
        if (v.problem) {
            r.judgement.unjudged = v.problem;
            return;
        }
    }
    r.judgement.runs = cells[0].values.size();
    for (const CellValues& v : cells) {
        r.judgement.cells.push_back(static_cast<std::int64_t>(v.cell->index));
        r.judgement.runs = std::min(r.judgement.runs, v.values.size());
    }
    const std::array<Factor, 4> factors = {
        Factor{&cells[0].sample, 1}, Factor{&cells[1].sample, -1}, Factor{&cells[2].sample, -1},
        Factor{&cells[3].sample, 1}};
    if (!product_of(factors)) {
        r.judgement.unjudged = Unjudged{.why = Unjudged::Why::log_of_zero};
        return;
    }
    const LookPlan plan = look_plan_of(results);
    std::function<Evidence(size_t)> after = [&](size_t extra) {
        return product_evidence(factors, extra, plan);
    };
    Evidence e = after(0);
    mark_exact(c, e);
    r.origin =
        FigureOrigin{.kind = FigureOrigin::Kind::ratio_of_ratios,
                     .metric = m.info,
                     .log = true,
                     .several = true,
                     .numerator = typical_ratio(cells[0].sample, cells[1].sample),
                     .denominator = typical_ratio(cells[2].sample, cells[3].sample),
                     .runs = {cells[0].values, cells[1].values, cells[2].values, cells[3].values}};
    // Runs made in rounds with one run of each of the four cells are judged round by round, as
    // a ratio's are in pairs: a drift that moves the whole round cancels in its ratio of ratios.
    const bool several = std::any_of(cells.begin(), cells.end(), [](const CellValues& v) {
        return v.sample.linear.variance > 0;
    });
    const std::vector<std::vector<double>> rounds = runs_by_round(results, m, r.judgement.cells);
    const bool in_rounds = !c.exact && several && rounds.size() >= k_min_runs_for_interval;
    if (in_rounds) {
        std::vector<double> logs;
        for (const std::vector<double>& round : rounds) {
            logs.push_back(std::log(round[0]) - std::log(round[1]) - std::log(round[2])
                           + std::log(round[3]));
        }
        const Moments d = moments_of(logs);
        after = [d, plan](size_t extra) { return paired_ratio_evidence(d, extra, plan); };
        e = after(0);
        r.origin.rounds = rounds.size();
        r.judgement.runs = rounds.size();
    }
    hold(e, in_rounds ? Basis::paired : Basis::independent, r.judgement);
    conclude(c, e, after, r);
}

void evaluate_spread(const Claim& c, const ResultsDir& results, const MetricValues& m,
                     const CellPair& cells, ClaimJudgement& r) {
    const CellValues& a = cells.a;
    const CellValues& b = cells.b;
    if (r.judgement.runs < 2) {
        r.judgement.verdict = Verdict::inconclusive;
        r.judgement.unjudged = Unjudged{.why = Unjudged::Why::one_run_spread};
        return;
    }
    const Spreads spreads = *spreads_of(a.sample, b.sample);
    if (spreads.b <= 0.0) {
        r.judgement.unjudged =
            Unjudged{.why = Unjudged::Why::constant_baseline, .subject = c.baseline.text};
        return;
    }
    const LookPlan plan = look_plan_of(results);
    const auto after = [&](size_t extra) {
        return spread_evidence(a.sample, b.sample, extra, plan);
    };
    const Evidence e = after(0);
    hold(e, Basis::independent, r.judgement);
    r.origin = FigureOrigin{.kind = FigureOrigin::Kind::spread_ratio,
                            .metric = m.info,
                            .several = true,
                            .numerator = spreads.a,
                            .denominator = spreads.b,
                            .scale = spreads.scale,
                            .runs = {a.values, b.values}};
    conclude(c, e, after, r);
}

} // namespace pglab::lab::judge
