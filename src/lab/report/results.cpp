// Tolerant reader of results directories: a report of what is there beats no report.
#include "lab/report/results.hpp"

#include "lab/store/results_store.hpp"
#include "lab/store/run_record.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace pglab::lab::report {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::string_view k_plan_version = "pglab.plan/1";
constexpr std::string_view k_run_version = "pglab.run/1";

int64_t int_field(const json& doc, const char* name, int64_t fallback) {
    const auto it = doc.find(name);
    return it != doc.end() && it->is_number_integer() ? it->get<int64_t>() : fallback;
}

std::string string_field(const json& doc, const char* name) {
    const auto it = doc.find(name);
    return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void read_plan(ResultsDir& r) {
    const auto text = util::read_text_file(r.dir / "plan.json");
    if (!text) {
        r.problems.emplace_back(
            "plan.json is missing: the plan (seed, order, cells not yet run) is unknown; cells "
            "are rebuilt from the finished runs");
        return;
    }
    json plan = json::parse(*text, nullptr, false);
    if (plan.is_discarded() || !plan.is_object()) {
        r.problems.emplace_back("plan.json is not valid JSON: the plan is unknown; cells are "
                                "rebuilt from the finished runs");
        return;
    }
    const std::string version = string_field(plan, "version");
    if (version != k_plan_version) {
        r.problems.push_back(fmt::format(
            "plan.json has version \"{}\", this pglab reads \"{}\": fields it does not know are "
            "left out",
            version.empty() ? "(none)" : version, k_plan_version));
    }
    r.name = string_field(plan, "experiment");
    r.description = string_field(plan, "description");
    if (const auto it = plan.find("variables"); it != plan.end() && it->is_array()) {
        for (const auto& v : *it) {
            if (v.is_string()) {
                r.variables.push_back(v.get<std::string>());
            }
        }
    }
    if (const auto it = plan.find("cells"); it != plan.end() && it->is_array()) {
        for (const auto& c : *it) {
            if (!c.is_object()) {
                continue;
            }
            Cell cell;
            cell.index = int_field(c, "index", static_cast<int64_t>(r.cells.size()));
            cell.label = string_field(c, "label");
            cell.server = string_field(c, "server");
            if (const auto v = c.find("values"); v != c.end() && v->is_object()) {
                cell.values = *v;
            }
            r.cells.push_back(std::move(cell));
        }
    }
    r.plan = std::move(plan);
}

/// results.jsonl through the store's reader (the same torn-line rule as --resume) and its typed
/// records; a line that cannot be used is skipped with a problem saying why.
void read_runs(ResultsDir& r) {
    const auto text = util::read_text_file(r.dir / "results.jsonl");
    if (!text) {
        r.problems.emplace_back("results.jsonl is missing: no run has finished");
        return;
    }
    std::vector<int64_t> seen_runs;
    for (store::JsonlLine& line : store::split_jsonl(*text)) {
        const auto number = static_cast<int64_t>(line.number);
        if (!line.valid) {
            r.problems.push_back(fmt::format(
                "results.jsonl line {}: {}; the line is skipped", number,
                line.torn ? "incomplete last line (the run was probably killed while writing it)"
                          : "not valid JSON"));
            continue;
        }
        json& doc = line.value;
        const std::string version = string_field(doc, "version");
        if (version != k_run_version) {
            r.problems.push_back(fmt::format(
                "results.jsonl line {}: version \"{}\", this pglab reads \"{}\": fields it does "
                "not know are left out",
                number, version.empty() ? "(none)" : version, k_run_version));
        }
        if (int_field(doc, "run", -1) < 0 || int_field(doc, "cell", -1) < 0) {
            r.problems.push_back(fmt::format(
                "results.jsonl line {}: no \"run\" or \"cell\" number; the line is skipped",
                number));
            continue;
        }
        auto record = store::run_record_from_json(doc);
        if (!record) {
            r.problems.push_back(fmt::format("results.jsonl line {}: {}; the line is skipped",
                                             number, record.error().message));
            continue;
        }
        RunRecord rec;
        rec.line = number;
        rec.run = static_cast<int64_t>(record->run);
        rec.cell = static_cast<int64_t>(record->cell);
        if (std::find(seen_runs.begin(), seen_runs.end(), rec.run) != seen_runs.end()) {
            r.problems.push_back(fmt::format(
                "results.jsonl line {}: run {} appears a second time; the line is skipped", number,
                rec.run));
            continue;
        }
        seen_runs.push_back(rec.run);
        rec.repetition = record->repetition;
        rec.warmup = record->warmup;
        rec.ok = record->status() == store::RunStatus::ok;
        rec.label = record->label;
        if (r.name.empty()) {
            r.name = record->experiment;
        }
        rec.doc = std::move(doc);
        r.runs.push_back(std::move(rec));
    }
}

/// Without plan.json: one cell per distinct cell number of the runs.
void rebuild_cells(ResultsDir& r) {
    for (const auto& run : r.runs) {
        if (find_cell(r, run.cell) != nullptr) {
            continue;
        }
        Cell cell;
        cell.index = run.cell;
        cell.label = run.label;
        if (const auto v = run.doc.find("values"); v != run.doc.end() && v->is_object()) {
            cell.values = *v;
            if (r.variables.empty()) {
                for (const auto& item : v->items()) {
                    r.variables.push_back(item.key());
                }
            }
        }
        if (const auto s = run.doc.find("server"); s != run.doc.end() && s->is_object()) {
            cell.server = string_field(*s, "name");
        }
        r.cells.push_back(std::move(cell));
    }
    std::sort(r.cells.begin(), r.cells.end(),
              [](const Cell& a, const Cell& b) { return a.index < b.index; });
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
    r.experiment_toml = util::read_text_file(dir / "experiment.toml").value_or("");
    if (r.name.empty()) {
        r.name = dir.filename().string();
    }
    return r;
}

const Cell* find_cell(const ResultsDir& results, int64_t index) {
    for (const auto& c : results.cells) {
        if (c.index == index) {
            return &c;
        }
    }
    return nullptr;
}

std::string value_text(const json& value) {
    if (value.is_string()) {
        return value.get<std::string>();
    }
    if (value.is_boolean()) {
        return value.get<bool>() ? "true" : "false";
    }
    if (value.is_number_integer()) {
        return std::to_string(value.get<int64_t>());
    }
    if (value.is_number()) {
        return fmt::format("{}", value.get<double>());
    }
    return value.dump();
}

} // namespace pglab::lab::report
