// lab/store: the one reader of results.jsonl.
#include "lab/store/results_file.hpp"

#include "lab/experiment/experiment_spec.hpp"
#include "lab/store/bench_figures.hpp"
#include "lab/store/gzip_file.hpp"
#include "lab/store/line_differences.hpp"
#include "lab/store/line_seal.hpp"
#include "util/text.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace pglab::lab::store {

namespace {

constexpr std::string_view k_run_version = "pglab.run/1";

/// Why a line whose record was read cannot be kept ("" when it can), and each value of it the
/// record leaves out, in `out`'s problems. A line of another version is not compared with its
/// record (its fields are not this pglab's), only its bench documents are read.
std::string reservations(const nlohmann::json& doc, const RunRecord& record, bool this_version,
                         std::size_t number, ResultsFile& out) {
    const std::vector<LineDifference> differences =
        this_version ? line_differences(doc, to_json(record)) : std::vector<LineDifference>{};
    for (const LineDifference& d : differences) {
        if (d.read_as) {
            return d.sentence(); // a value read as another is not kept
        }
    }
    for (const LineDifference& d : differences) {
        out.problems.push_back({number, d.sentence(), false});
    }
    for (const StepRecord& step : record.steps) {
        if (step.type.empty()) {
            return fmt::format("steps[{}] has no \"type\"", step.index);
        }
        if (const auto* other = step.as<OtherStep>(); other != nullptr) {
            // Kept as they are, but read by nothing: the report cannot show them.
            std::vector<std::string> keys;
            for (const auto& [key, value] : other->fields.items()) {
                keys.push_back(key);
            }
            out.problems.push_back(
                {number,
                 experiment::step_type_named(step.type)
                     ? fmt::format("steps[{}], a {} step, has fields this pglab does not read "
                                   "({}): left out",
                                   step.index, step.type, util::join(keys, ", "))
                     : fmt::format("steps[{}] is of type \"{}\", which this pglab does not "
                                   "know: only the fields every step has are read",
                                   step.index, step.type),
                 false});
        }
        const auto* bench = step.as<BenchStep>();
        const auto figures = bench != nullptr ? bench_figures(*bench) : std::nullopt;
        for (const std::string& unread : figures ? figures->unread : std::vector<std::string>{}) {
            out.problems.push_back(
                {number, fmt::format("steps[{}].bench.{}", step.index, unread), false});
        }
    }
    return {};
}

std::string repetition_text(std::uint32_t repetition, bool warmup, std::uint32_t round) {
    return fmt::format("{} {}{}", warmup ? "warm-up" : "repetition", repetition,
                       round > 0 ? fmt::format(", round {}", round) : std::string());
}

/// Why `record` is not the run `plan` has under its ordinal ("" when it is): a line whose run
/// or cell number was changed would count for a run or a cell it is not.
std::string against_plan(const RunRecord& record, const PlanRecord& plan) {
    // The plan lists its runs by ordinal: run N is at N, unless a plan was written otherwise.
    const bool at_ordinal =
        record.run < plan.runs.size() && plan.runs[record.run].run == record.run;
    const auto planned = at_ordinal
                             ? plan.runs.begin() + static_cast<std::ptrdiff_t>(record.run)
                             : std::find_if(plan.runs.begin(), plan.runs.end(),
                                            [&](const PlanRun& p) { return p.run == record.run; });
    if (planned == plan.runs.end()) {
        return fmt::format("run {} is not in plan.json", record.run);
    }
    if (planned->cell != record.cell || planned->repetition != record.repetition
        || planned->warmup != record.warmup || planned->round != record.round) {
        return fmt::format(
            "run {} is cell {}, {} in plan.json; the line says cell {}, {}", record.run,
            planned->cell, repetition_text(planned->repetition, planned->warmup, planned->round),
            record.cell, repetition_text(record.repetition, record.warmup, record.round));
    }
    const Cell* cell = find_cell(plan.cells, static_cast<std::int64_t>(record.cell));
    if (cell != nullptr && bindings_json(cell->bindings) != record.values) {
        return fmt::format("its values {} are not those of cell {} in plan.json ({})",
                           record.values.dump(), record.cell, bindings_json(cell->bindings).dump());
    }
    return {};
}

/// A line's problem when its object is not a finished run (or is one with a reservation).
void judge(nlohmann::json& doc, std::size_t number, const PlanRecord* plan,
           std::set<std::size_t>& finished, ResultsFile& out) {
    const auto version = doc.find("version");
    const std::string v =
        version != doc.end() && version->is_string() ? version->get<std::string>() : std::string();
    if (v != k_run_version) {
        out.problems.push_back(
            {number,
             fmt::format("version \"{}\", this pglab reads \"{}\": fields it does not know are "
                         "left out",
                         v.empty() ? "(none)" : v, k_run_version),
             false});
    }
    if (open_seal(doc) == Seal::broken) {
        out.problems.push_back({number,
                                "its crc32 does not match its content: the line was changed "
                                "after pglab wrote it",
                                true});
        return;
    }
    auto record = run_record_from_json(doc);
    if (!record) {
        out.problems.push_back({number, record.error().message, true});
        return;
    }
    if (finished.count(record->run) != 0) {
        out.problems.push_back(
            {number, fmt::format("run {} appears a second time", record->run), true});
        return;
    }
    if (plan != nullptr) {
        if (std::string why = against_plan(*record, *plan); !why.empty()) {
            out.problems.push_back({number, std::move(why), true});
            return;
        }
    }
    if (std::string why = reservations(doc, *record, v == k_run_version, number, out);
        !why.empty()) {
        out.problems.push_back({number, std::move(why), true});
        return;
    }
    finished.insert(record->run);
    out.runs.push_back({number, std::move(*record)});
}

} // namespace

ResultsFile parse_results(std::string_view text, const PlanRecord* plan) {
    ResultsFile out;
    out.exists = true;
    std::set<std::size_t> finished;
    std::size_t number = 0;
    for (std::size_t pos = 0; pos < text.size();) {
        ++number;
        const std::size_t nl = text.find('\n', pos);
        const bool complete = nl != std::string_view::npos;
        const std::string_view line = text.substr(pos, (complete ? nl : text.size()) - pos);
        pos = complete ? nl + 1 : text.size();
        if (line.empty()) {
            out.complete_bytes = pos;
            continue;
        }
        nlohmann::json doc = nlohmann::json::parse(line, nullptr, false);
        const bool object = !doc.is_discarded() && doc.is_object();
        if (!complete || (!object && pos == text.size())) {
            // Only the last line can be a write cut short.
            out.torn = true;
            out.problems.push_back(
                {number, "incomplete last line (the run was probably killed while writing it)",
                 true});
            break;
        }
        out.complete_bytes = pos;
        if (!object) {
            out.problems.push_back({number, "not valid JSON", true});
            continue;
        }
        judge(doc, number, plan, finished, out);
    }
    return out;
}

Result<ResultsFile> read_results(const std::filesystem::path& path, const PlanRecord* plan) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return ResultsFile{};
    }
    PGLAB_TRY_ASSIGN(const std::string text, util::read_text_file(path));
    return parse_results(text, plan);
}

Result<ResultsFile> read_results_in(const std::filesystem::path& dir, const PlanRecord* plan,
                                    std::string* name) {
    std::error_code ec;
    const std::filesystem::path packed = dir / "results.jsonl.gz";
    const bool only_packed =
        !std::filesystem::exists(dir / "results.jsonl", ec) && std::filesystem::exists(packed, ec);
    if (name != nullptr) {
        *name = only_packed ? "results.jsonl.gz" : "results.jsonl";
    }
    if (!only_packed) {
        return read_results(dir / "results.jsonl", plan);
    }
    PGLAB_TRY_ASSIGN(const std::string text, read_gzip_file(packed));
    ResultsFile file = parse_results(text, plan);
    file.exists = true;
    return file;
}

} // namespace pglab::lab::store
