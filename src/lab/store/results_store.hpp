// lab/store: the results directory of `pglab run` (docs/results-format.md): a copy of the
// experiment file (passwords masked), plan.json, results.jsonl appended and fsynced one line per
// finished run, the raw logs of each run and the server logs. Reopening for --resume tolerates a
// torn last line. One runner at a time: an open store holds an exclusive lock on the directory.
#pragma once

#include "lab/store/plan_record.hpp"
#include "lab/store/results_file.hpp"
#include "lab/store/run_record.hpp"
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

/// An open results directory.
class ResultsStore {
public:
    /// Whether create() can make `dir`: error when it exists and is not empty (naming the runner
    /// that holds it, if one does) or is not a directory. --dry-run asks it as the run will.
    static Status check_new(const std::filesystem::path& dir);

    /// Creates `dir` (error when check_new() says so), writes `experiment_text` (the
    /// experiment file, its passwords masked by the caller) into it as experiment.toml and
    /// writes plan.json. The directory is made under a temporary name beside `dir` and renamed
    /// when complete, so a failure (a full disk) leaves no half-made `dir` behind.
    static Result<ResultsStore> create(const std::filesystem::path& dir,
                                       std::string_view experiment_text, const PlanRecord& plan);

    /// Opens an existing directory for --resume: reads plan.json and results.jsonl; a torn last
    /// line is cut off (with a warning on stderr) so that new lines follow the good ones. Error,
    /// naming its pid, when another pglab holds the directory.
    static Result<ResultsStore> open(const std::filesystem::path& dir);

    ResultsStore(ResultsStore&& other) noexcept;
    ResultsStore& operator=(ResultsStore&& other) noexcept;
    ResultsStore(const ResultsStore&) = delete;
    ResultsStore& operator=(const ResultsStore&) = delete;
    ~ResultsStore();

    const std::filesystem::path& dir() const { return m_dir; }

    const PlanRecord& plan() const { return m_plan; }

    /// The copy of the experiment file.
    std::filesystem::path experiment_copy() const { return m_dir / "experiment.toml"; }

    /// Appends `runs` to the plan and rewrites plan.json (a new file fsynced, then renamed over
    /// the old one: a crash leaves the old plan or the new, never half of one). A `repeat`
    /// until decided plans its added rounds so, before it runs them, so that --resume finds them.
    Status add_planned_runs(const std::vector<PlanRun>& runs);

    /// Ordinals (`run`) of the lines already in results.jsonl.
    const std::set<std::size_t>& finished() const { return m_finished; }

    /// Appends `line` (one JSON object, written on one line) to results.jsonl and fsyncs it.
    /// A line that cannot be written whole (a full disk) is cut off again: the file keeps only
    /// complete lines, and the error says why (strerror).
    Status append(const nlohmann::json& line);

    /// Appends the run's line (to_json(record)).
    Status append_run(const RunRecord& record) { return append(to_json(record)); }

    /// runs/NNNN (created), for the raw logs of run `ordinal`.
    Result<std::filesystem::path> run_dir(std::size_t ordinal) const;

    /// A path relative to the results directory ("runs/0003/01-bench.log").
    std::string relative(const std::filesystem::path& path) const;

    /// Where the server log of cluster number `cluster` of `server` is kept:
    /// servers/<server>/<cluster>-postgresql.log for the session that created the directory,
    /// servers/<server>/resume<k>-<cluster>-postgresql.log for the k-th --resume, so that no
    /// session overwrites the logs of another (a killed one's included). The directory is
    /// created.
    std::filesystem::path server_log(const std::string& server, int cluster) const;

    /// Copies a server log into server_log(server, cluster). Best effort.
    void copy_server_log(const std::string& server, int cluster,
                         const std::filesystem::path& log_file) const;

    /// The runner session of this directory: 1 for the run that created it, k + 1 for the k-th
    /// --resume (counted from the server logs of the earlier ones).
    int session() const { return m_session; }

private:
    ResultsStore() = default;
    Status open_jsonl();
    Status lock();

    std::filesystem::path m_dir;
    PlanRecord m_plan;
    std::set<std::size_t> m_finished;
    int m_fd = -1;
    int m_lock_fd = -1; ///< DIR/.lock, flock()ed while the store is open
    int m_session = 1;
};

} // namespace pglab::lab::store
