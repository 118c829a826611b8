// Claim evidence shared by every kind of claim: see claim_evidence.hpp.
#include "lab/judge/claim_evidence.hpp"

#include <algorithm>
#include <map>

namespace pglab::lab::judge {

using store::Cell;
using store::FinishedRun;
using store::ResultsDir;

using experiment::Claim;

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
    using Why = Unjudged::Why;
    if (cells.size() != 1) {
        out.problem = cells.empty() ? Unjudged{.why = Why::no_cell, .subject = selector_text}
                                    : Unjudged{.why = Why::several_cells,
                                               .subject = selector_text,
                                               .count = cells.size()};
        return out;
    }
    out.cell = cells.front();
    const auto it = metric.by_cell.find(out.cell->index);
    if (it == metric.by_cell.end() || it->second.empty()) {
        out.problem = Unjudged{.why = Why::no_runs, .subject = out.cell->label};
        return out;
    }
    out.values = values_of(it->second);
    out.sample = sample_in(metric, out.cell->index);
    return out;
}

std::optional<CellPair> read_cell_pair(const Claim& c, const ResultsDir& results,
                                       const MetricValues& m, ClaimJudgement& r) {
    CellPair pair{values_of(c.cell, results, m), values_of(c.baseline, results, m)};
    if (pair.a.problem || pair.b.problem) {
        r.judgement.unjudged = pair.a.problem ? pair.a.problem : pair.b.problem;
        return std::nullopt;
    }
    r.judgement.cells = {static_cast<std::int64_t>(pair.a.cell->index),
                         static_cast<std::int64_t>(pair.b.cell->index)};
    r.judgement.runs = std::min(pair.a.values.size(), pair.b.values.size());
    return pair;
}

std::vector<std::vector<double>> runs_by_round(const ResultsDir& results, const MetricValues& m,
                                               const std::vector<std::int64_t>& cells) {
    std::vector<std::vector<double>> out;
    if (!results.plan
        || (results.plan->order != "paired" && results.plan->order != "interleaved")) {
        return out;
    }
    // round -> the cell's values in it (a round with two runs of a cell pairs nothing)
    const auto by_round = [&](std::int64_t cell) {
        std::map<std::uint32_t, std::vector<double>> rounds;
        if (const auto runs = m.by_cell.find(cell); runs != m.by_cell.end()) {
            for (const RunFigure& f : runs->second) {
                if (f.round > 0) {
                    rounds[f.round].push_back(f.value);
                }
            }
        }
        return rounds;
    };
    std::vector<std::map<std::uint32_t, std::vector<double>>> rounds;
    for (const std::int64_t cell : cells) {
        rounds.push_back(by_round(cell));
    }
    if (rounds.empty()) {
        return out;
    }
    for (const auto& [round, first] : rounds.front()) {
        std::vector<double> row;
        for (const auto& cell_rounds : rounds) {
            const auto it = cell_rounds.find(round);
            if (it == cell_rounds.end() || it->second.size() != 1) {
                break;
            }
            row.push_back(it->second.front());
        }
        if (row.size() == rounds.size()) {
            out.push_back(std::move(row));
        }
    }
    return out;
}

PairedRuns paired_runs(const ResultsDir& results, const MetricValues& m, std::int64_t cell_a,
                       std::int64_t cell_b) {
    PairedRuns out;
    for (const std::vector<double>& row : runs_by_round(results, m, {cell_a, cell_b})) {
        out.a.push_back(row[0]);
        out.b.push_back(row[1]);
    }
    return out;
}

void mark_exact(const Claim& c, Evidence& e) {
    if (c.exact) {
        e.exact = true;
    }
}

Evidence claim_ratio_evidence(const Claim& c, const Sample& a, const Sample& b,
                              const LookPlan& plan) {
    Evidence e = ratio_evidence(a, b, 0, plan);
    mark_exact(c, e);
    if (e.exact) {
        e.value = a.linear.mean / b.linear.mean;
    }
    return e;
}

LookPlan look_plan_of(const ResultsDir& results) {
    if (!results.plan || !results.plan->repeat || !results.plan->repeat_max) {
        return {};
    }
    return LookPlan::rounds(static_cast<std::size_t>(*results.plan->repeat),
                            static_cast<std::size_t>(*results.plan->repeat_max));
}

void hold(const Evidence& e, Basis basis, Judgement& j) {
    j.value = e.value;
    j.look = e.levels.look;
    j.looks = e.levels.looks;
    j.ci95 = e.ci95;
    j.ci90 = e.ci90;
    j.basis = e.exact ? Basis::exact : basis;
}

void conclude(const Claim& c, const Evidence& e, const std::function<Evidence(size_t)>& more_runs,
              ClaimJudgement& r) {
    const Allowed allowed = allowed_by(c);
    r.decision = decide(allowed, e);
    r.judgement.verdict = r.decision->verdict;
    if (r.judgement.verdict != Verdict::inconclusive || e.exact) {
        return;
    }
    if (e.runs <= 1) {
        r.judgement.more_runs = MoreRuns::give_an_interval;
    } else if (const auto extra = extra_runs_to_decide(allowed, more_runs)) {
        r.judgement.more_runs = MoreRuns::likely_decide;
        r.judgement.more_runs_needed = *extra;
    } else {
        r.judgement.more_runs = MoreRuns::would_not_decide;
    }
}

} // namespace pglab::lab::judge
