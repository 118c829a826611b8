// Disturbances read from each measured run's steps (a once step that ran unsettled before it) and
// probes (docs/probes.md: checkpointer.*,
// db.autovacuum_count, db.autoanalyze_count, host.cpu_s, host.steal_s, server.cpu_s,
// client.cpu_s, elapsed_s).
#include "lab/report/disturbances.hpp"

#include "lab/report/statistics.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace pglab::lab::report {

namespace {

std::optional<double> probe_value(const store::ProbeValues& probes, std::string_view name) {
    const auto it = std::find_if(probes.begin(), probes.end(),
                                 [&](const store::ProbeValue& p) { return p.name == name; });
    return it == probes.end() ? std::nullopt : std::optional<double>(it->value);
}

std::string count_text(double n, const char* what) {
    return fmt::format("{:.0f} {} run{}", n, what, n == 1 ? "" : "s");
}

/// What fell into one step of one run, from its probes; `checkpoint`: the report's own reading
/// of the checkpoint probes (StepData::checkpoint_runs).
std::vector<std::string> disturbances_of(const store::ProbeValues& probes, bool checkpoint,
                                         int cores) {
    std::vector<std::string> what;
    if (checkpoint) {
        what.emplace_back("a checkpoint");
    }
    for (const auto& [name, words] : {std::pair{"db.autovacuum_count", "autovacuum"},
                                      std::pair{"db.autoanalyze_count", "autoanalyze"}}) {
        if (const auto n = probe_value(probes, name); n && *n > 0) {
            what.push_back(count_text(*n, words));
        }
    }
    const auto elapsed = probe_value(probes, "elapsed_s");
    if (cores <= 0 || !elapsed || *elapsed <= 0) {
        return what;
    }
    const double machine_s = *elapsed * cores;
    const auto host = probe_value(probes, "host.cpu_s");
    const auto server = probe_value(probes, "server.cpu_s");
    const auto client = probe_value(probes, "client.cpu_s");
    if (host && server && client) {
        const double other = std::max(0.0, *host - *server - *client);
        if (other > k_other_cpu_share * machine_s) {
            what.push_back(fmt::format("other processes took {:.1f} s of CPU ({:.0f}% of the "
                                       "machine)",
                                       other, 100.0 * other / machine_s));
        }
    }
    if (const auto steal = probe_value(probes, "host.steal_s");
        steal && *steal > k_steal_share * machine_s) {
        what.push_back(fmt::format("steal {:.0f}% of the machine", 100.0 * *steal / machine_s));
    }
    return what;
}

std::string cv_text(std::span<const double> values) {
    const Summary s = summarize(values);
    return s.cv ? fmt::format("{:.1f}%", *s.cv * 100.0) : std::string("-");
}

} // namespace

std::vector<std::string> RunDisturbance::causes() const {
    std::vector<std::string> out;
    for (const std::string& key : after_setup) {
        out.push_back(fmt::format("follows setup step {} with no settle between", key));
    }
    out.insert(out.end(), what.begin(), what.end());
    return out;
}

namespace {

/// The once steps that ran in `run` and were not settled after, before each of its steps: for
/// step i of run.steps, the keys of such steps before it.
class UnsettledSetup {
public:
    UnsettledSetup(const store::RunRecord& run, const std::set<std::string>& once)
        : m_run(run), m_once(once) {}

    /// Called for each step of the run in order: the setup before `s`, then `s` counted.
    std::vector<std::string> before(const store::StepRecord& s) {
        std::vector<std::string> out = m_seen;
        if (m_once.count(s.key) != 0 && s.status == store::StepStatus::ok && !settled_after(s)) {
            m_seen.push_back(s.key);
        }
        return out;
    }

private:
    bool settled_after(const store::StepRecord& s) const {
        if (!m_run.settle) {
            return false;
        }
        const auto& after = m_run.settle->after;
        return std::find(after.begin(), after.end(), s.key) != after.end();
    }

    const store::RunRecord& m_run;
    const std::set<std::string>& m_once;
    std::vector<std::string> m_seen;
};

bool checkpoint_in(const StepData& step, int64_t run) {
    return std::find(step.checkpoint_runs.begin(), step.checkpoint_runs.end(), run)
           != step.checkpoint_runs.end();
}

} // namespace

std::vector<StepDisturbances> collect_disturbances(const ResultsDir& results,
                                                   const std::vector<StepData>& steps,
                                                   const std::set<std::string>& once, int cores) {
    std::map<std::string, StepDisturbances> by_step;
    for (const FinishedRun& f : results.runs) {
        const store::RunRecord& run = f.record;
        if (run.warmup || run.status() != store::RunStatus::ok) {
            continue;
        }
        const auto number = static_cast<int64_t>(run.run);
        UnsettledSetup setup(run, once);
        for (const store::StepRecord& s : run.steps) {
            std::vector<std::string> after_setup = setup.before(s);
            const auto step = std::find_if(steps.begin(), steps.end(),
                                           [&](const StepData& d) { return d.key == s.key; });
            if (s.status != store::StepStatus::ok || step == steps.end()) {
                continue;
            }
            const bool measured =
                step->kind && experiment::measures_itself(*step->kind) && once.count(s.key) == 0;
            if (!measured) {
                after_setup.clear(); // a setup step's own figures are the run's, not a cell's
            }
            std::vector<std::string> what;
            if (s.probes) {
                what = disturbances_of(*s.probes, checkpoint_in(*step, number), cores);
            }
            if (!what.empty() || !after_setup.empty()) {
                StepDisturbances& d = by_step[s.key];
                d.step = s.key;
                d.runs.push_back(RunDisturbance{number, static_cast<int64_t>(run.cell),
                                                std::move(after_setup), std::move(what)});
            }
        }
    }
    std::vector<StepDisturbances> out;
    for (const StepData& step : steps) { // in the report's order of steps
        if (const auto it = by_step.find(step.key); it != by_step.end()) {
            out.push_back(std::move(it->second));
        }
    }
    return out;
}

std::vector<std::string> cell_disturbances(const StepDisturbances& disturbed, int64_t cell) {
    std::vector<std::string> out;
    for (const RunDisturbance& r : disturbed.runs) {
        if (r.cell == cell) {
            out.push_back(fmt::format("run {}: {}", r.run, util::join(r.causes(), ", ")));
        }
    }
    return out;
}

void add_disturbances_section(const std::vector<StepDisturbances>& disturbed,
                              const std::vector<StepData>& steps,
                              const std::function<std::string(int64_t)>& cell_label,
                              Document& doc) {
    if (disturbed.empty()) {
        return;
    }
    doc.heading(2, "Disturbances");
    doc.paragraph(fmt::format(
        "Runs into whose measured step something else fell: a setup step (`once`) run before it "
        "with no settle between, a checkpoint, an autovacuum or autoanalyze run, other processes "
        "taking more than {:.0f}% of the machine's CPU, or "
        "steal above {:.0f}%. They stay in every figure above; each cell's spread is given with "
        "and without them.",
        k_other_cpu_share * 100, k_steal_share * 100));
    for (const StepDisturbances& d : disturbed) {
        doc.heading(3, "Step " + d.step);
        Table runs;
        runs.header = {"run", "cell", "what fell into it"};
        runs.numeric = {true, false, false};
        std::set<int64_t> flagged;
        for (const RunDisturbance& r : d.runs) {
            flagged.insert(r.run);
            runs.rows.push_back(
                {std::to_string(r.run), cell_label(r.cell), util::join(r.causes(), "; ")});
        }
        doc.table(std::move(runs));
        const auto step = std::find_if(steps.begin(), steps.end(),
                                       [&](const StepData& s) { return s.key == d.step; });
        if (step == steps.end() || step->metrics.empty()) {
            continue;
        }
        const MetricValues& m = step->metrics.front();
        Table spread;
        spread.header = {"cell", "runs", "CV of " + m.info.title, "undisturbed runs",
                         "CV without the disturbed"};
        spread.numeric = {false, true, true, true, true};
        for (const auto& [cell, cell_runs] : m.by_cell) {
            const std::vector<double> values = values_of(cell_runs);
            std::vector<double> clean;
            for (const RunFigure& f : cell_runs) {
                if (flagged.count(f.run) == 0) {
                    clean.push_back(f.value);
                }
            }
            spread.rows.push_back({cell_label(cell), std::to_string(values.size()), cv_text(values),
                                   std::to_string(clean.size()), cv_text(clean)});
        }
        doc.table(std::move(spread));
    }
}

} // namespace pglab::lab::report
