// lab/report: the steps that depart from the paper.
#include "lab/report/deviations.hpp"

#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

namespace pglab::lab::report {

std::vector<Deviation> collect_deviations(const ResultsDir& results) {
    std::vector<Deviation> out;
    if (!results.plan) {
        return out;
    }
    for (const store::PlanStep& step : results.plan->steps) {
        if (step.deviation.empty()) {
            continue;
        }
        std::set<int64_t> cells;
        for (const FinishedRun& f : results.runs) {
            const auto ran = std::find_if(
                f.record.steps.begin(), f.record.steps.end(), [&](const store::StepRecord& s) {
                    return s.key == step.key && s.status != store::StepStatus::skipped
                           && s.status != store::StepStatus::not_run;
                });
            if (!f.record.warmup && ran != f.record.steps.end()) {
                cells.insert(static_cast<int64_t>(f.record.cell));
            }
        }
        out.push_back({step.key, step.deviation, {cells.begin(), cells.end()}});
    }
    return out;
}

void add_deviations_section(const std::vector<Deviation>& deviations, const ResultsDir& results,
                            const std::function<std::string(int64_t)>& cell_label, Document& doc) {
    if (deviations.empty()) {
        return;
    }
    doc.heading(2, "Where this run departs from the paper");
    std::vector<std::string> items;
    for (const Deviation& d : deviations) {
        std::string where;
        if (d.cells.empty()) {
            where = "no measured run ran it";
        } else if (d.cells.size() == results.cells.size()) {
            where = "every cell";
        } else {
            std::vector<std::string> labels;
            for (const int64_t c : d.cells) {
                labels.push_back(cell_label(c));
            }
            where = fmt::format("{} of {} cells: {}", d.cells.size(), results.cells.size(),
                                util::join(labels, "; "));
        }
        items.push_back(fmt::format("Step `{}` ({}): {}", d.step, where, d.why));
    }
    doc.list(std::move(items));
}

} // namespace pglab::lab::report
