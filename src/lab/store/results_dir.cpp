// Tolerant reader of results directories: a report of what is there beats no report.
#include "lab/store/results_dir.hpp"

#include "lab/experiment/parse_experiment.hpp"
#include "lab/store/results_file.hpp"
#include "lab/store/run_record.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace pglab::lab::store {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void read_plan(ResultsDir& r) {
    const fs::path path = r.dir / "plan.json";
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        r.problems.emplace_back(
            "plan.json is missing: the plan (seed, order, cells not yet run) is unknown; cells "
            "are rebuilt from the finished runs");
        return;
    }
    auto plan = store::read_plan(path); // not this file's read_plan(ResultsDir&)
    if (!plan) {
        r.problems.emplace_back("plan.json is not valid JSON: the plan is unknown; cells are "
                                "rebuilt from the finished runs");
        return;
    }
    if (plan->version != k_plan_version) {
        r.problems.push_back(fmt::format(
            "plan.json has version \"{}\", this pglab reads \"{}\": fields it does not know are "
            "left out",
            plan->version.empty() ? "(none)" : plan->version, k_plan_version));
    }
    r.name = plan->experiment;
    r.description = plan->description;
    r.variables = plan->variables;
    r.cells = plan->cells;
    r.plan = std::move(*plan);
}

/// results.jsonl (or a kept run's results.jsonl.gz) through the store's one reader (the rule
/// --resume follows too); every line it skips or keeps with a reservation becomes a problem.
void read_runs(ResultsDir& r) {
    std::string name;
    auto file = read_results_in(r.dir, r.plan ? &*r.plan : nullptr, &name);
    if (!file || !file->exists) {
        r.problems.emplace_back("results.jsonl is missing: no run has finished");
        return;
    }
    for (const LineProblem& p : file->problems) {
        r.problems.push_back(fmt::format("{} line {}: {}{}", name, p.line, p.what,
                                         p.skipped ? "; the line is skipped" : ""));
    }
    if (r.name.empty() && !file->runs.empty()) {
        r.name = file->runs.front().record.experiment;
    }
    r.runs = std::move(file->runs);
}

/// A run's cell as its line gives it: values and server.
std::string cell_as_given(const RunRecord& run) {
    return fmt::format("{} on server \"{}\"", run.values.dump(), run.server.seen.name);
}

/// Without plan.json a cell is what its runs say: when runs give one cell number different
/// values or servers (a line damaged, or two results files put together), nothing tells which is
/// right, so each of them is skipped and named.
void skip_cells_told_two_ways(ResultsDir& r) {
    std::map<std::size_t, std::set<std::string>> given;
    for (const auto& finished : r.runs) {
        given[finished.record.cell].insert(cell_as_given(finished.record));
    }
    std::vector<FinishedRun> kept;
    for (auto& finished : r.runs) {
        const std::set<std::string>& ways = given[finished.record.cell];
        if (ways.size() == 1) {
            kept.push_back(std::move(finished));
            continue;
        }
        r.problems.push_back(fmt::format(
            "results.jsonl line {}: run {} gives cell {} as {}, other lines give it otherwise, and "
            "without plan.json nothing tells which is right; the line is skipped",
            finished.line, finished.record.run, finished.record.cell,
            cell_as_given(finished.record)));
    }
    r.runs = std::move(kept);
}

/// Without plan.json: one cell per distinct cell number of the runs.
void rebuild_cells(ResultsDir& r) {
    skip_cells_told_two_ways(r);
    for (const auto& finished : r.runs) {
        const RunRecord& run = finished.record;
        if (find_cell(r, static_cast<int64_t>(run.cell)) != nullptr) {
            continue;
        }
        Cell cell;
        cell.index = run.cell;
        cell.label = run.label;
        if (r.variables.empty()) {
            for (const auto& item : run.values.items()) {
                r.variables.push_back(item.key());
            }
        }
        cell.bindings = bindings_from(run.values, r.variables);
        cell.server = run.server.seen.name;
        r.cells.push_back(std::move(cell));
    }
    std::sort(r.cells.begin(), r.cells.end(),
              [](const Cell& a, const Cell& b) { return a.index < b.index; });
}

/// experiment.toml of results whose plan.json predates the claims in it, parsed with the lab's
/// own parser; a file it refuses is a problem of the claims.
void read_experiment(ResultsDir& r) {
    const auto text = util::read_text_file(r.dir / "experiment.toml");
    if (!text || text->empty()) {
        return;
    }
    experiment::ParseOptions options;
    options.read_files = false;
    auto parsed = experiment::parse_experiment_text(*text, "experiment.toml", r.dir, options);
    if (parsed.spec) {
        r.experiment = std::move(*parsed.spec);
    } else if (!parsed.diagnostics.items().empty()) {
        r.experiment_problem = "the claims of experiment.toml could not be read: "
                               + parsed.diagnostics.items().front().headline();
    }
}

} // namespace

Result<ResultsDir> load_results(const fs::path& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        return make_error(
            Error(fmt::format("results directory \"{}\" does not exist", dir.string()))
                .with_hint("Give the directory that \"pglab run\" wrote (results/NAME-"
                           "YYYYMMDD-HHMMSS by default)."));
    }
    if (!fs::exists(dir / "plan.json", ec) && !fs::exists(dir / "results.jsonl", ec)) {
        return make_error(
            Error(fmt::format("\"{}\" is not a results directory: it has neither plan.json nor "
                              "results.jsonl",
                              dir.string()))
                .with_hint("Give the directory that \"pglab run\" wrote."));
    }
    ResultsDir r;
    r.dir = dir;
    read_plan(r);
    read_runs(r);
    if (r.cells.empty()) {
        rebuild_cells(r);
    }
    if (!plan_has_claims(r)) {
        read_experiment(r);
    }
    if (r.name.empty()) {
        r.name = dir.filename().string();
    }
    return r;
}

bool plan_has_claims(const ResultsDir& results) {
    return results.plan && results.plan->claims;
}

const Cell* find_cell(const ResultsDir& results, int64_t index) {
    return find_cell(results.cells, index);
}

} // namespace pglab::lab::store
