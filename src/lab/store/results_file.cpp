// lab/store: the one reader of results.jsonl.
#include "lab/store/results_file.hpp"

#include "util/text_file.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <set>

namespace pglab::lab::store {

namespace {

constexpr std::string_view k_run_version = "pglab.run/1";

/// A line's problem when its object is not a finished run (or is one with a reservation).
void judge(const nlohmann::json& doc, std::size_t number, std::set<std::size_t>& finished,
           ResultsFile& out) {
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
    auto record = run_record_from_json(doc);
    if (!record) {
        out.problems.push_back({number, record.error().message, true});
        return;
    }
    if (!finished.insert(record->run).second) {
        out.problems.push_back(
            {number, fmt::format("run {} appears a second time", record->run), true});
        return;
    }
    out.runs.push_back({number, std::move(*record)});
}

} // namespace

ResultsFile parse_results(std::string_view text) {
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
        judge(doc, number, finished, out);
    }
    return out;
}

Result<ResultsFile> read_results(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        return ResultsFile{};
    }
    PGLAB_TRY_ASSIGN(const std::string text, util::read_text_file(path));
    return parse_results(text);
}

} // namespace pglab::lab::store
