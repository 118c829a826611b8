// lab/store: one finished run as results.jsonl holds it (`pglab.run/1`, docs/results-format.md),
// typed: the orchestrator fills a RunRecord, the store writes it as one line, and every reader
// (--resume, the report) gets it back through read_results() (results_file.hpp). A run's status
// is derived from what its steps did, never from an empty message.
#pragma once

#include "lab/store/step_json.hpp"
#include "lab/store/step_record.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::store {

/// What became of a run: derived from its steps and its preparation (RunRecord::status()).
enum class RunStatus : std::uint8_t {
    ok,       ///< every step ran ok or was skipped
    failed,   ///< the server could not be prepared, or a step failed
    timed_out ///< a step was stopped by a timeout
};

const char* run_status_name(RunStatus s);
std::optional<RunStatus> parse_run_status(std::string_view name);

/// Why a run did not end ok: the first failure, with the step it happened in (none when it is
/// not a step's: the server's preparation).
struct RunFailure {
    std::optional<std::size_t> step;
    std::string step_key;
    std::string reason;
    bool timed_out = false; ///< the run's deadline passed outside any step (between steps)
};

/// A server that pglab found dead before or during a run and started again.
struct ServerRecovery {
    std::string server;
    std::string reason;   ///< how it was found ("the postmaster exited with signal 9")
    std::string log_tail; ///< the end of its server log when it was found dead
};

/// A server a run reached, as it was when the run's steps started.
struct ServerSeen {
    std::string name;
    std::string version;          ///< server_version ("15.6"); "" unknown
    std::int64_t version_num = 0; ///< server_version_num (150006); 0 unknown
    std::string bin_dir;          ///< the installation used; "" for an existing server

    bool operator==(const ServerSeen&) const = default;
};

/// The cell's server (docs/results-format.md, "server").
struct ServerRecord {
    ServerSeen seen;
    std::int64_t cluster = 0; ///< which cluster of the server (0: an existing server)
    /// The emulated machine, as this run's form of the file gave it.
    std::optional<std::int64_t> memory_limit_bytes;
    std::optional<std::int64_t> sync_delay_us;
    std::map<std::string, std::string> settings;  ///< NAME -> current_setting(NAME)
    std::map<std::string, std::string> requested; ///< NAME -> the value as the file wrote it

    bool operator==(const ServerRecord&) const = default;
};

struct RunTimings {
    double total_ms = 0;
    double server_ms = 0;
    double steps_ms = 0;
    double overhead_ms = 0;
    int restarts = 0;
};

/// How the run's server was settled before its first step (`settle`, docs/experiments.md): a
/// CHECKPOINT, then a bounded wait until no other session is active and no autovacuum worker
/// runs.
struct SettleRecord {
    double checkpoint_ms = 0; ///< the CHECKPOINT's time
    double waited_ms = 0;     ///< the wait after it
    bool settled = false;     ///< false: the bound passed first, or the server could not be asked
    /// What was still going when the bound passed ("2 other active sessions, 1 autovacuum
    /// worker"), or why the server could not be asked; "" when settled.
    std::string busy;
    /// The setup steps the run ran before it settled (keys of the leading unmeasured `once`
    /// steps that ran in this run: a once init), so that their writes are not in its
    /// measurements.
    std::vector<std::string> after;

    bool operator==(const SettleRecord&) const = default;
};

/// One finished run.
struct RunRecord {
    std::string experiment;
    std::size_t run = 0;
    std::size_t cell = 0;
    nlohmann::json values = nlohmann::json::object(); ///< the cell's matrix values
    std::string label;
    std::uint32_t repetition = 0;
    bool warmup = false;
    std::uint32_t round = 0;
    std::uint64_t seed = 0;
    std::string started_at;
    std::int64_t start_time_us = 0;
    RunTimings timings;
    ServerRecord server;
    std::vector<ServerSeen> servers; ///< every server the run reached (empty: none known)
    std::vector<StepRecord> steps;
    std::optional<RunFailure> failure; ///< set whenever status() is not ok
    std::vector<ServerRecovery> recoveries;
    std::optional<SettleRecord> settle; ///< none: the file says `settle = false`
    /// Other pglab or pgbench processes that took CPU during the run ("pglab (pid 1234): 12.5 s
    /// of CPU"): it was measured beside them.
    std::vector<std::string> beside;

    /// timed_out when a step timed out (or the deadline passed between steps); failed when a
    /// step failed or `failure` says the server's preparation did; ok otherwise.
    RunStatus status() const;
};

/// The run as one results.jsonl object (`"version": "pglab.run/1"`).
nlohmann::json to_json(const RunRecord& record);

/// A results.jsonl object back as a RunRecord. Error (naming the field) when a field the
/// format requires is missing or has another type.
Result<RunRecord> run_record_from_json(const nlohmann::json& line);

} // namespace pglab::lab::store
