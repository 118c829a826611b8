// lab/store: the results directory of `pglab run` (docs/results-format.md): a copy of the
// experiment file (passwords masked), plan.json, results.jsonl appended and fsynced one line per
// finished run, the raw logs of each run and the server logs. Reopening for --resume tolerates a
// torn last line.
#pragma once

#include "util/result.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::store {

/// "results/<name>-<YYYYMMDD-HHMMSS>" for an experiment named `name` at local time `epoch_s`
/// (characters other than letters, digits, `_`, `-` and `.` become `_`).
std::filesystem::path default_results_dir(std::string_view name, std::int64_t epoch_s);

/// What results.jsonl holds: the complete lines, parsed, and whether a torn last line (no final
/// newline, or not a JSON object) was found and how many bytes precede it.
struct JsonlContents {
    std::vector<nlohmann::json> lines;
    bool torn = false;
    std::uintmax_t valid_bytes = 0; ///< length of the file up to the end of the last good line
};

/// Reads a results.jsonl. Error only when the file cannot be read or a line other than the last
/// is not valid JSON (then the file was not written by pglab).
Result<JsonlContents> read_jsonl(const std::filesystem::path& path);

/// An open results directory.
class ResultsStore {
public:
    /// Creates `dir` (error when it exists and is not empty), writes `experiment_text` (the
    /// experiment file, its passwords masked by the caller) into it as experiment.toml and
    /// writes plan.json.
    static Result<ResultsStore> create(const std::filesystem::path& dir,
                                       std::string_view experiment_text,
                                       const nlohmann::json& plan);

    /// Opens an existing directory for --resume: reads plan.json and results.jsonl; a torn last
    /// line is cut off (with a warning on stderr) so that new lines follow the good ones.
    static Result<ResultsStore> open(const std::filesystem::path& dir);

    ResultsStore(ResultsStore&& other) noexcept;
    ResultsStore& operator=(ResultsStore&& other) noexcept;
    ResultsStore(const ResultsStore&) = delete;
    ResultsStore& operator=(const ResultsStore&) = delete;
    ~ResultsStore();

    const std::filesystem::path& dir() const { return m_dir; }

    const nlohmann::json& plan() const { return m_plan; }

    /// The copy of the experiment file.
    std::filesystem::path experiment_copy() const { return m_dir / "experiment.toml"; }

    /// Ordinals (`run`) of the lines already in results.jsonl.
    const std::set<std::size_t>& finished() const { return m_finished; }

    /// Appends `line` (one JSON object, written on one line) to results.jsonl and fsyncs it.
    Status append(const nlohmann::json& line);

    /// runs/NNNN (created), for the raw logs of run `ordinal`.
    Result<std::filesystem::path> run_dir(std::size_t ordinal) const;

    /// A path relative to the results directory ("runs/0003/01-bench.log").
    std::string relative(const std::filesystem::path& path) const;

    /// Copies a server log into servers/<server>/<cluster>-postgresql.log. Best effort.
    void copy_server_log(const std::string& server, int cluster,
                         const std::filesystem::path& log_file) const;

private:
    ResultsStore() = default;
    Status open_jsonl();

    std::filesystem::path m_dir;
    nlohmann::json m_plan;
    std::set<std::size_t> m_finished;
    int m_fd = -1;
};

} // namespace pglab::lab::store
