// A shape as tests of ratios, each judged as a ratio claim is (verdict_rules.hpp): "flat within
// ±b", each level over the first within 1 ± b; "increasing", each level over the one before at
// least 1 + min_step; "decreasing", at most 1 − min_step; "levels_off", increasing up to a level
// and flat within ±b from it on. A set of ratios agrees when every one agrees (an
// intersection–union test: no correction is needed), differs when one differs, and is left open
// otherwise.
#include "lab/judge/claim_shapes.hpp"

#include "lab/judge/claim_evidence.hpp"
#include "lab/judge/shape_reading.hpp"
#include "lab/judge/statistics.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace pglab::lab::judge {

using store::Cell;
using store::ResultsDir;

namespace {

using experiment::Claim;

/// One level of a shape claim: the value of `over` and the runs of its cell; along a ratio, the
/// runs of the ratio's denominator too.
struct Level {
    std::string value;
    const Cell* cell = nullptr;
    Sample sample;
    const Cell* baseline_cell = nullptr; ///< a ratio along `over`: the denominator's cell
    std::optional<Sample> baseline;

    /// The level's figure: its cell's typical value, or the ratio's.
    double figure() const {
        return baseline ? typical_ratio(sample, *baseline) : typical_value(sample);
    }

    size_t runs() const {
        return baseline ? std::min(sample.linear.n, baseline->linear.n) : sample.linear.n;
    }
};

/// The one cell with measured runs that `selector` names at `over` = `value`; nullptr and why
/// not in `problem` otherwise.
const Cell* level_cell(const experiment::CellSelector& selector, const std::string& over,
                       const std::string& value, const ResultsDir& results, const MetricValues& m,
                       std::optional<Unjudged>& problem) {
    using Why = Unjudged::Why;
    const Cell* found = nullptr;
    for (const auto& cell : results.cells) {
        const experiment::Scalar* v = cell.find(over);
        if (v == nullptr || v->text() != value || !cell_matches(cell, selector)) {
            continue;
        }
        if (found != nullptr) {
            problem = Unjudged{
                .why = Why::several_cells_at, .subject = selector.text, .over = over, .at = value};
            return nullptr;
        }
        found = &cell;
    }
    if (found == nullptr) {
        problem =
            Unjudged{.why = Why::no_cell_at, .subject = selector.text, .over = over, .at = value};
        return nullptr;
    }
    const auto it = m.by_cell.find(static_cast<std::int64_t>(found->index));
    if (it == m.by_cell.end() || it->second.empty()) {
        problem = Unjudged{.why = Why::no_runs, .subject = found->label};
        return nullptr;
    }
    return found;
}

/// The levels along `over` of the cells the claim's selector names (of a ratio's two cells), from
/// `from` on; none, and why in `problem`, when a level has no measured run or there are too few.
std::vector<Level> shape_levels(const Claim& c, const ResultsDir& results, const MetricValues& m,
                                std::optional<Unjudged>& problem) {
    std::vector<Level> levels;
    bool started = c.from.empty();
    const bool along_ratio = c.kind == experiment::ClaimKind::ratio_along;
    for (const auto& cell : results.cells) {
        const experiment::Scalar* v = cell.find(c.over);
        if (!cell_matches(cell, c.cell) || v == nullptr) {
            continue;
        }
        started = started || v->text() == c.from;
        if (!started) {
            continue;
        }
        Level level;
        level.value = v->text();
        level.cell = level_cell(c.cell, c.over, level.value, results, m, problem);
        if (along_ratio) {
            level.baseline_cell = level_cell(c.baseline, c.over, level.value, results, m, problem);
        }
        if (level.cell == nullptr || (along_ratio && level.baseline_cell == nullptr)) {
            return {};
        }
        level.sample = sample_in(m, level.cell->index);
        if (along_ratio) {
            level.baseline = sample_in(m, level.baseline_cell->index);
        }
        levels.push_back(std::move(level));
    }
    const size_t fewest = c.shape == experiment::Shape::levels_off ? 3 : 2;
    if (levels.size() < fewest) {
        problem = Unjudged{.why = Unjudged::Why::too_few_levels, .over = c.over, .count = fewest};
        return {};
    }
    return levels;
}

/// One ratio of a shape: level `a` over level `b` against what the shape allows of it.
struct Test {
    size_t a = 0;
    size_t b = 0;
    const Allowed* allowed = nullptr;
};

class ShapeJudge {
public:
    ShapeJudge(const Claim& c, const std::vector<Level>& levels, const LookPlan& plan)
        : m_claim(c), m_levels(levels), m_plan(plan) {}

    /// The test judged, once: a shape's ratios are shown and then judged, and the levels a knee
    /// shares with another are judged for both (extra_runs_to_decide() is not cheap).
    const ShapeRatio& judge(const Test& t) const {
        const auto key = std::make_tuple(t.a, t.b, t.allowed);
        if (const auto it = m_judged.find(key); it != m_judged.end()) {
            return it->second;
        }
        return m_judged.emplace(key, judge_anew(t)).first->second;
    }

    ShapeOutcome judge_all(const std::vector<Test>& tests) const {
        ShapeOutcome o;
        o.tests = tests.size();
        for (const Test& t : tests) {
            const ShapeRatio& j = judge(t);
            if (j.verdict() == Verdict::differs) {
                o.differs.push_back(j);
            } else if (j.verdict() == Verdict::inconclusive) {
                o.open.push_back(j);
                if (j.extra) {
                    o.most_extra = std::max(o.most_extra, *j.extra);
                } else {
                    o.undecidable = true;
                }
            } else if (!o.agreed) {
                o.agreed = j;
            }
        }
        return o;
    }

    /// The ratios of `tests`, in order, as shown after the levels.
    std::vector<ShapeRatio> ratios(const std::vector<Test>& tests) const {
        std::vector<ShapeRatio> out;
        for (const Test& t : tests) {
            out.push_back(judge(t));
        }
        return out;
    }

private:
    ShapeRatio judge_anew(const Test& t) const {
        const Level& a = m_levels[t.a];
        const Level& b = m_levels[t.b];
        ShapeRatio j{.a = a.value, .b = b.value};
        if (b.figure() == 0) {
            j.problem = ShapeRatio::Problem::zero_denominator;
            return j;
        }
        std::function<Evidence(size_t)> after;
        Evidence e;
        if (a.baseline) {
            // (a over its baseline) over (b over its baseline), on the log scale.
            const std::vector<Factor> factors = {
                {&a.sample, 1}, {&*a.baseline, -1}, {&b.sample, -1}, {&*b.baseline, 1}};
            if (!product_of(factors)) {
                j.problem = ShapeRatio::Problem::log_of_zero;
                return j;
            }
            after = [factors, this](size_t extra) {
                return product_evidence(factors, extra, m_plan);
            };
            e = after(0);
        } else {
            after = [&](size_t extra) { return ratio_evidence(a.sample, b.sample, extra, m_plan); };
            e = claim_ratio_evidence(m_claim, a.sample, b.sample, m_plan);
        }
        const Decision d = decide(*t.allowed, e);
        j.value = e.value;
        if (e.ci95 && !e.exact) {
            j.ci95 = *e.ci95;
        }
        j.decision = d;
        if (d.verdict == Verdict::inconclusive) {
            j.extra = e.runs >= k_min_runs_for_interval
                          ? extra_runs_to_decide(*t.allowed, after)
                          : std::optional<size_t>(k_min_runs_for_interval - e.runs);
        }
        return j;
    }

    const Claim& m_claim;
    const std::vector<Level>& m_levels;
    LookPlan m_plan;
    mutable std::map<std::tuple<size_t, size_t, const Allowed*>, ShapeRatio> m_judged;
};

/// Each level over the one before, from `first` to `last` (inclusive).
std::vector<Test> steps(size_t first, size_t last, const Allowed& allowed) {
    std::vector<Test> out;
    for (size_t i = first; i <= last; ++i) {
        out.push_back(Test{i, i - 1, &allowed});
    }
    return out;
}

/// Each level after `reference` over it, up to `last`.
std::vector<Test> over_reference(size_t reference, size_t last, const Allowed& allowed) {
    std::vector<Test> out;
    for (size_t i = reference + 1; i <= last; ++i) {
        out.push_back(Test{i, reference, &allowed});
    }
    return out;
}

Allowed flat_band(const Claim& c) {
    Allowed a;
    a.band = Band{1.0, c.tolerance};
    return a;
}

Allowed growth(const Claim& c) {
    Allowed a;
    a.at_least = 1.0 + c.min_step;
    return a;
}

/// The verdict of `o` in `r`, with the runs that would likely decide it when it is open.
void conclude_outcome(const Claim& c, const ShapeOutcome& o, ClaimJudgement& r) {
    r.judgement.verdict = o.verdict();
    if (r.judgement.verdict != Verdict::inconclusive) {
        return;
    }
    if (r.judgement.runs < k_min_runs_for_interval && !c.exact) {
        r.judgement.more_runs = MoreRuns::give_an_interval;
    } else if (!o.undecidable) {
        r.judgement.more_runs = MoreRuns::likely_decide;
        r.judgement.more_runs_needed = o.most_extra;
    } else {
        r.judgement.more_runs = MoreRuns::would_not_decide;
    }
}

/// Rises, then levels off: for each level k it may level off at (one step up at least, one level
/// after it), the steps up to k each at least 1 + min_step and each level after k over k within
/// 1 ± tolerance. It agrees at the first k where every test agrees (the report says which),
/// differs when at every k one test differs, and is open otherwise; then the k with the fewest
/// open tests and no differing one says what is missing.
void evaluate_levels_off(const Claim& c, const ShapeJudge& judge, const std::vector<Level>& levels,
                         const Allowed& up, ShapeReading& reading, ClaimJudgement& r) {
    const Allowed flat = flat_band(c);
    const size_t last = levels.size() - 1;
    reading.levels_off = true;
    reading.at_least = *up.at_least;
    reading.band = *flat.band;
    std::optional<size_t> best_open; // the knee with no differing test and the fewest open
    ShapeOutcome best;
    for (size_t k = 1; k < last; ++k) {
        std::vector<Test> tests = steps(1, k, up);
        const std::vector<Test> after = over_reference(k, last, flat);
        tests.insert(tests.end(), after.begin(), after.end());
        const ShapeOutcome o = judge.judge_all(tests);
        if (o.verdict() == Verdict::agrees) {
            reading.knee = levels[k].value;
            reading.steps_up = k;
            reading.levels_after = last - k;
            reading.outcome = o;
            r.judgement.verdict = Verdict::agrees;
            return;
        }
        if (o.verdict() == Verdict::differs) {
            reading.not_at.emplace_back(levels[k].value, o.differs.front());
        } else if (!best_open || o.open.size() < best.open.size()) {
            best_open = k;
            best = o;
        }
    }
    if (!best_open) {
        r.judgement.verdict = Verdict::differs;
        return;
    }
    reading.likeliest = levels[*best_open].value;
    reading.outcome = best;
    conclude_outcome(c, best, r);
}

} // namespace

void evaluate_shape(const Claim& c, const ResultsDir& results, const MetricValues& m,
                    ClaimJudgement& r) {
    std::optional<Unjudged> problem;
    const std::vector<Level> levels = shape_levels(c, results, m, problem);
    if (levels.empty()) {
        r.judgement.unjudged = problem;
        return;
    }
    r.judgement.runs = levels.front().runs();
    for (const Level& l : levels) {
        r.judgement.cells.push_back(static_cast<std::int64_t>(l.cell->index));
        if (l.baseline_cell != nullptr) {
            r.judgement.cells.push_back(static_cast<std::int64_t>(l.baseline_cell->index));
        }
        r.judgement.runs = std::min(r.judgement.runs, l.runs());
        r.series.emplace_back(l.value, l.figure());
    }
    r.origin = FigureOrigin{.kind = FigureOrigin::Kind::shape, .metric = m.info};
    ShapeReading reading{.over = c.over, .ratio_levels = levels.front().baseline.has_value()};
    const ShapeJudge judge(c, levels, look_plan_of(results));
    const size_t last = levels.size() - 1;
    const bool flat = c.shape == experiment::Shape::flat;
    Allowed allowed = flat ? flat_band(c) : growth(c);
    if (c.shape == experiment::Shape::decreasing) {
        allowed = Allowed{};
        allowed.at_most = 1.0 - c.min_step;
    }
    if (c.shape == experiment::Shape::levels_off) {
        reading.shown = judge.ratios(steps(1, last, allowed));
        evaluate_levels_off(c, judge, levels, allowed, reading, r);
        r.shape = std::move(reading);
        return;
    }
    const std::vector<Test> tests =
        flat ? over_reference(0, last, allowed) : steps(1, last, allowed);
    reading.over_first = flat;
    reading.shown = judge.ratios(tests);
    reading.outcome = judge.judge_all(tests);
    conclude_outcome(c, reading.outcome, r);
    r.shape = std::move(reading);
}

} // namespace pglab::lab::judge
