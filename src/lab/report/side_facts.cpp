// side_facts: from plan.json (pglab, machine, form) and each measured run of the side's cells
// (its server as the run saw it, the bench steps' arguments and measured durations).
#include "lab/report/side_facts.hpp"

#include "lab/report/bench_runs.hpp"
#include "lab/report/statistics.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace pglab::lab::report {

namespace {

std::string machine_text(const util::MachineInfo& m) {
    return fmt::format("{} cores, {}, {:.1f} GB, {}", m.cores,
                       m.cpu_model.empty() ? std::string("unknown CPU") : m.cpu_model,
                       static_cast<double>(m.memory_bytes) / 1e9,
                       m.kernel.empty() ? std::string("unknown kernel") : m.kernel);
}

std::string values_text(const std::set<std::string>& values) {
    if (values.empty()) {
        return "none";
    }
    return util::join(std::vector<std::string>(values.begin(), values.end()), ", ");
}

} // namespace

SideFacts side_facts(const ResultsDir& results, const experiment::CellSelector& selector) {
    SideFacts out;
    if (results.plan) {
        const store::PlanRecord& plan = *results.plan;
        out.facts["pglab"].insert(plan.pglab_commit.empty()
                                      ? plan.pglab_version
                                      : plan.pglab_version + " (" + plan.pglab_commit + ")");
        if (plan.machine) {
            out.facts["machine"].insert(machine_text(*plan.machine));
        }
        out.facts["form"].insert(plan.quick ? "quick" : "full");
    }
    std::set<std::string> benches; // the bench steps' keys
    for (const FinishedRun& f : results.runs) {
        const store::RunRecord& run = f.record;
        const Cell* cell = find_cell(results, static_cast<std::int64_t>(run.cell));
        if (run.warmup || run.status() != store::RunStatus::ok || cell == nullptr
            || !experiment::cell_matches(*cell, selector)) {
            continue;
        }
        if (!run.server.seen.version.empty()) {
            out.facts["server version"].insert(run.server.seen.version);
        }
        for (const auto& [name, value] : run.server.settings) {
            out.facts["setting " + name].insert(value);
        }
        for (const store::StepRecord& s : run.steps) {
            if (s.as<store::BenchStep>() != nullptr) {
                benches.insert(s.key);
            }
        }
    }
    // What each bench ran and how long, as the report's table of them reads it.
    for (const std::string& step : benches) {
        std::vector<double> seconds;
        for (const BenchRan& ran : bench_ran(results, step)) {
            const Cell* cell = find_cell(results, ran.cell);
            if (cell == nullptr || !experiment::cell_matches(*cell, selector)) {
                continue;
            }
            if (!ran.arguments.empty()) {
                out.facts["step " + step + " arguments"].insert(util::join(ran.arguments, " "));
            }
            seconds.insert(seconds.end(), ran.durations_s.begin(), ran.durations_s.end());
        }
        if (!seconds.empty()) {
            out.bench_seconds[step] = median(seconds);
        }
    }
    return out;
}

std::vector<std::string> fact_differences(const SideFacts& a, const SideFacts& b,
                                          const std::string& name_a, const std::string& name_b) {
    constexpr double k_duration_factor = 1.2;
    std::vector<std::string> out;
    std::set<std::string> names;
    for (const SideFacts* side : {&a, &b}) {
        for (const auto& [name, values] : side->facts) {
            names.insert(name);
        }
    }
    static const std::set<std::string> none;
    for (const std::string& name : names) {
        const auto in_a = a.facts.find(name);
        const auto in_b = b.facts.find(name);
        const auto& va = in_a != a.facts.end() ? in_a->second : none;
        const auto& vb = in_b != b.facts.end() ? in_b->second : none;
        if (va != vb) {
            out.push_back(fmt::format("{}: {} in {}; {} in {}", name, values_text(va), name_a,
                                      values_text(vb), name_b));
        }
    }
    for (const auto& [step, seconds_a] : a.bench_seconds) {
        const auto in_b = b.bench_seconds.find(step);
        if (in_b == b.bench_seconds.end() || seconds_a <= 0 || in_b->second <= 0) {
            continue;
        }
        if (std::max(seconds_a, in_b->second) / std::min(seconds_a, in_b->second)
            > k_duration_factor) {
            out.push_back(fmt::format("step {} ran for {:.3g} s in {}; {:.3g} s in {} (medians)",
                                      step, seconds_a, name_a, in_b->second, name_b));
        }
    }
    return out;
}

} // namespace pglab::lab::report
