// lab/run: StoredTimes read from a results directory's plan.json and results.jsonl (or the
// compressed results.jsonl.gz a repository keeps).
#include "lab/run/stored_times.hpp"

#include "lab/store/bench_figures.hpp"
#include "lab/store/plan_record.hpp"
#include "lab/store/results_file.hpp"

#include <algorithm>
#include <system_error>

#include "options/bench_options.hpp"

namespace fs = std::filesystem;

namespace pglab::lab::run {

namespace {

/// A sum and a count, for a mean.
struct Total {
    double sum = 0;
    std::size_t n = 0;

    void add(double v) {
        sum += v;
        ++n;
    }

    double mean() const { return n > 0 ? sum / static_cast<double>(n) : 0.0; }
};

std::optional<store::ResultsFile> read_runs(const fs::path& dir, const store::PlanRecord& plan) {
    auto file = store::read_results_in(dir, &plan);
    return file ? std::optional(std::move(*file)) : std::nullopt;
}

std::vector<fs::path> subdirectories(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->is_directory(ec)) {
            out.push_back(it->path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// The value of `key` in the cell `label` of `by_cell`, else `overall`'s.
std::optional<double>
in_cell_or_overall(const std::map<std::string, std::map<std::string, double>>& by_cell,
                   const std::map<std::string, double>& overall, const std::string& key,
                   const std::string& label) {
    if (const auto step = by_cell.find(key); step != by_cell.end()) {
        if (const auto cell = step->second.find(label); cell != step->second.end()) {
            return cell->second;
        }
    }
    if (const auto step = overall.find(key); step != overall.end()) {
        return step->second;
    }
    return std::nullopt;
}

/// Means of each step's values by cell, and over every cell.
struct StepMeans {
    std::map<std::string, std::map<std::string, Total>> by_cell;
    std::map<std::string, Total> overall;

    void add(const std::string& key, const std::string& label, double v) {
        by_cell[key][label].add(v);
        overall[key].add(v);
    }

    void put(std::map<std::string, std::map<std::string, double>>& cells,
             std::map<std::string, double>& all) const {
        for (const auto& [key, by_label] : by_cell) {
            for (const auto& [label, total] : by_label) {
                cells[key][label] = total.mean();
            }
        }
        for (const auto& [key, total] : overall) {
            all[key] = total.mean();
        }
    }
};

} // namespace

std::optional<double> StoredTimes::time_of(const std::string& key, const std::string& label) const {
    return in_cell_or_overall(step_cell_ms, step_ms, key, label);
}

std::optional<double> StoredTimes::transaction_time_of(const std::string& key,
                                                       const std::string& label) const {
    return in_cell_or_overall(transaction_cell_ms, transaction_ms, key, label);
}

std::optional<StoredTimes> read_stored_times(const fs::path& dir, const std::string& name) {
    auto plan = store::read_plan(dir / "plan.json");
    if (!plan || plan->experiment != name) {
        return std::nullopt;
    }
    const auto file = read_runs(dir, *plan);
    if (!file) {
        return std::nullopt;
    }
    StoredTimes t;
    t.dir = dir;
    t.date = plan->created_at.substr(0, 10);
    t.quick = plan->quick;
    Total server;
    StepMeans steps;
    StepMeans transactions;
    for (const store::FinishedRun& f : file->runs) {
        const store::RunRecord& run = f.record;
        if (run.status() != store::RunStatus::ok) {
            continue; // a failed run stopped early: its time says little of a whole one
        }
        ++t.runs;
        server.add(std::max(0.0, run.timings.total_ms - run.timings.steps_ms));
        for (const store::StepRecord& s : run.steps) {
            if (s.status != store::StepStatus::ok || !s.elapsed_ms) {
                continue;
            }
            steps.add(s.key, run.label, *s.elapsed_ms);
            const auto* bench = s.as<store::BenchStep>();
            const auto figures = bench != nullptr ? store::bench_figures(*bench) : std::nullopt;
            if (figures && figures->transactions && *figures->transactions > 0) {
                transactions.add(s.key, run.label, *s.elapsed_ms / *figures->transactions);
            }
        }
    }
    if (t.runs == 0) {
        return std::nullopt;
    }
    t.server_ms_per_run = server.mean();
    steps.put(t.step_cell_ms, t.step_ms);
    transactions.put(t.transaction_cell_ms, t.transaction_ms);
    return t;
}

std::vector<fs::path> stored_results_dirs(const fs::path& experiment_file) {
    std::vector<fs::path> out = subdirectories("results");
    const fs::path here =
        experiment_file.parent_path().empty() ? fs::path(".") : experiment_file.parent_path();
    for (const fs::path& base : {here, here / ".."}) {
        for (const fs::path& study : subdirectories(base / "docs" / "studies" / "results")) {
            out.push_back((study / "runs").lexically_normal());
        }
    }
    return out;
}

std::optional<StoredTimes> newest_stored_times(const std::vector<fs::path>& candidates,
                                               const std::string& name, bool quick) {
    // The quick form is named NAME-quick (parse_quick.cpp).
    constexpr std::string_view k_quick = "-quick";
    const std::string other = !quick ? name + std::string(k_quick)
                              : name.ends_with(k_quick)
                                  ? name.substr(0, name.size() - k_quick.size())
                                  : std::string();
    // plan.json first (small): only the newest of each form is read in full.
    std::vector<std::pair<std::string, fs::path>> same_form;
    std::vector<std::pair<std::string, fs::path>> other_form;
    for (const fs::path& dir : candidates) {
        auto plan = store::read_plan(dir / "plan.json");
        if (plan && plan->quick == quick && plan->experiment == name) {
            same_form.emplace_back(plan->created_at, dir);
        } else if (plan && plan->quick != quick && !other.empty() && plan->experiment == other) {
            other_form.emplace_back(plan->created_at, dir);
        }
    }
    for (auto* dirs : {&same_form, &other_form}) {
        std::sort(dirs->rbegin(), dirs->rend()); // newest first
        for (const auto& [created, dir] : *dirs) {
            if (auto times = read_stored_times(dir, dirs == &same_form ? name : other)) {
                return times;
            }
        }
    }
    return std::nullopt;
}

namespace {

/// The scale an init step ran at, read from its recorded arguments by pglab bench's own parser;
/// none when they do not parse.
std::optional<int> init_scale(const std::vector<std::string>& arguments) {
    std::vector<std::string> full = {"--initialize"};
    full.insert(full.end(), arguments.begin(), arguments.end());
    const auto parsed = options::parse_bench_options(full, options::default_bench_parse_env(), {});
    if (!parsed || parsed->action != options::BenchAction::initialize) {
        return std::nullopt;
    }
    return parsed->init.scale;
}

} // namespace

std::optional<InitModel> fit_init_model(const std::vector<fs::path>& candidates) {
    std::vector<std::pair<double, double>> points; // scale, ms
    for (const fs::path& dir : candidates) {
        auto plan = store::read_plan(dir / "plan.json");
        if (!plan) {
            continue;
        }
        const auto file = read_runs(dir, *plan);
        if (!file) {
            continue;
        }
        for (const store::FinishedRun& f : file->runs) {
            for (const store::StepRecord& s : f.record.steps) {
                const auto* init = s.as<store::InitStep>();
                if (init == nullptr || s.status != store::StepStatus::ok || !s.elapsed_ms
                    || !init->arguments) {
                    continue;
                }
                if (const auto scale = init_scale(*init->arguments); scale && *scale > 0) {
                    points.emplace_back(*scale, *s.elapsed_ms);
                }
            }
        }
    }
    if (points.size() < 2) {
        return std::nullopt;
    }
    double mx = 0;
    double my = 0;
    for (const auto& [x, y] : points) {
        mx += x;
        my += y;
    }
    const double n = static_cast<double>(points.size());
    mx /= n;
    my /= n;
    double sxx = 0;
    double sxy = 0;
    for (const auto& [x, y] : points) {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
    }
    InitModel m;
    m.inits = points.size();
    if (sxx > 0 && sxy > 0) {
        m.ms_per_scale = sxy / sxx;
        m.fixed_ms = std::max(0.0, my - m.ms_per_scale * mx);
    } else { // one scale only, or no growth seen: time in proportion to the scale
        m.ms_per_scale = my / mx;
    }
    return m;
}

} // namespace pglab::lab::run
