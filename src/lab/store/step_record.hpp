// lab/store: one step of a run as results.jsonl keeps it (docs/results-format.md, "Step
// objects"): the fields every step has, and one struct per step kind for what that kind records.
// lab/run fills them; the store's serialiser (step_json) is the only code that sees their JSON.
#pragma once

#include "lab/store/probe_value.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace pglab::lab::store {

/// What became of one step of a run.
enum class StepStatus : std::uint8_t {
    ok,          ///< it ran and did what it should
    failed,      ///< it ran and failed (the reason in `error`)
    timed_out,   ///< stopped by its `timeout` or by the run's `run_timeout`
    interrupted, ///< stopped by SIGINT/SIGTERM (such a run is not recorded)
    skipped,     ///< its `when` was false, or `once` and already done (`skip_reason`)
    not_run      ///< an earlier step (or the server's preparation) failed
};

const char* step_status_name(StepStatus s);
std::optional<StepStatus> parse_step_status(std::string_view name);

/// One functional check of a `sql` or `explain` step (`expect`, `expect_rows`, `expect_error`,
/// `expect_blocked`, `expect_plan`). Expected and actual are what the check compared: text, or
/// lists (rows as lists of values, null for NULL; node types).
struct CheckRecord {
    std::string kind;
    nlohmann::json expected;
    nlohmann::json actual;
    bool pass = false;

    bool operator==(const CheckRecord&) const = default;
};

/// The error a statement ended with.
struct SqlError {
    std::string sqlstate; ///< "" when unknown
    std::string message;  ///< its first line

    bool operator==(const SqlError&) const = default;
};

/// What a statement gave: its columns and first rows when it returned rows, or its error.
struct StatementRecord {
    std::vector<std::string> columns; ///< empty: a command, or it failed
    /// At most the first 100 rows, each value as text; none for NULL.
    std::vector<std::vector<std::optional<std::string>>> rows;
    std::int64_t row_count = 0; ///< all rows of the result
    std::optional<SqlError> sql_error;

    bool operator==(const StatementRecord&) const = default;
};

/// How a statement that `expect_blocked` left waiting ended, seen later in the run.
struct LateResult {
    std::string status; ///< "completed", "failed" or "cancelled"
    double waited_ms = 0;
    std::string cancelled_because; ///< why pglab cancelled it; "" unless cancelled
    StatementRecord statement;

    bool operator==(const LateResult&) const = default;
};

/// `init` (pgbench -i).
struct InitStep {
    /// The expanded arguments, a password in a conninfo masked; none when they could not be made.
    std::optional<std::vector<std::string>> arguments;
    std::optional<int> exit_status; ///< pgbench's: 0 ok, 1 failed

    bool operator==(const InitStep&) const = default;
};

/// `bench` (pglab bench, or a fleet of them under MPI).
struct BenchStep {
    std::optional<std::vector<std::string>> arguments; ///< as InitStep's
    /// The run's `pglab.bench/1` document (docs/json-schema.md); null when it did not start.
    nlohmann::json document;
    std::optional<int> exit_status; ///< pgbench's: 0, 1 bad options or set-up, 2 aborted clients

    bool operator==(const BenchStep&) const = default;
};

/// `sql`: statements in one session, what the last gave, and the checks.
struct SqlStep {
    std::string session;
    /// The expanded statements; none when they could not be expanded.
    std::optional<std::vector<std::string>> statements;
    /// The first value of the last statement's first row (with `statements`; none: no rows).
    std::optional<std::string> result;
    std::optional<StatementRecord> last; ///< none when the statements did not all run
    std::vector<CheckRecord> checks;
    std::optional<LateResult> late_result; ///< its statement left waiting ended later

    bool operator==(const SqlStep&) const = default;
};

/// `timed-sql`: one statement timed by the client and by the server's clock.
struct TimedSqlStep {
    std::string session;
    std::string statement;
    std::optional<double> client_ms;
    std::optional<double> server_ms;  ///< none when the server's clock could not be read
    std::optional<std::int64_t> rows; ///< none when it returned no rows

    bool operator==(const TimedSqlStep&) const = default;
};

/// The summary of an EXPLAIN (FORMAT JSON) document: buffers are the top node's (cumulative),
/// heap fetches summed over every node, node types distinct in depth-first order.
struct ExplainSummary {
    std::optional<double> execution_ms; ///< none without ANALYZE
    std::optional<double> planning_ms;
    std::optional<double> total_cost;
    std::vector<std::string> node_types;
    std::int64_t shared_hit_blocks = 0;
    std::int64_t shared_read_blocks = 0;
    std::int64_t heap_fetches = 0;
    std::optional<double> rows; ///< the top node's actual rows (per loop), without ANALYZE none

    bool operator==(const ExplainSummary&) const = default;
};

/// `explain`: EXPLAIN of one statement.
struct ExplainStep {
    std::string session;
    std::string statement;
    std::optional<ExplainSummary> explain; ///< none when EXPLAIN failed
    std::vector<CheckRecord> checks;

    bool operator==(const ExplainStep&) const = default;
};

/// `shell`: a command through /bin/sh -c.
struct ShellStep {
    std::string command;
    std::optional<int> exit_status; ///< none when it did not exit by itself (killed)

    bool operator==(const ShellStep&) const = default;
};

/// `restart` and `stop`: the shutdown mode.
struct ShutdownStep {
    std::string mode; ///< "smart", "fast" or "immediate"

    bool operator==(const ShutdownStep&) const = default;
};

/// `sleep`.
struct SleepStep {
    std::int64_t duration_ms = 0;

    bool operator==(const SleepStep&) const = default;
};

/// The own fields of a step this pglab cannot read as its kind's (a newer pglab's kind), kept
/// as they were so that the line is written back unchanged.
struct OtherStep {
    nlohmann::json fields = nlohmann::json::object();

    bool operator==(const OtherStep&) const = default;
};

/// What a step recorded of its own: nothing (skipped, not run, failed before it could record
/// anything, or a kind with nothing to record: start, promote, checkpoint), or its kind's record.
using StepDetails = std::variant<std::monostate, InitStep, BenchStep, SqlStep, TimedSqlStep,
                                 ExplainStep, ShellStep, ShutdownStep, SleepStep, OtherStep>;

/// The replication_lag probe of a primary right after a measured step: over its standbys, the
/// largest lags and the WAL bytes the slowest has yet to replay (levels, not deltas).
struct ReplicationLag {
    std::int64_t standbys = 0;
    std::optional<double> write_lag_ms; ///< none when caught up and no lag reported since
    std::optional<double> flush_lag_ms;
    std::optional<double> replay_lag_ms;
    std::optional<std::int64_t> bytes_behind;

    bool operator==(const ReplicationLag&) const = default;
};

/// The replication_lag probe as asked: `lag` none when the primary could not be asked.
struct ReplicationProbe {
    std::optional<ReplicationLag> lag;

    bool operator==(const ReplicationProbe&) const = default;
};

/// One step object of a run line.
struct StepRecord {
    std::size_t index = 0;
    std::string key;    ///< name, or "<index>:<type>"
    std::string type;   ///< "bench", "timed-sql"...
    std::string server; ///< the server it ran on
    StepStatus status = StepStatus::not_run;
    std::string skip_reason;          ///< skipped: "when" or "once"
    std::string error;                ///< not ok: why ("" for ok, skipped, not-run)
    std::optional<double> elapsed_ms; ///< client wall time; none when not run
    std::string log;                  ///< the raw log relative to the results dir; "" none
    /// The probes' differences over the step, by name; none when it was not measured (null).
    std::optional<ProbeValues> probes;
    /// Probes withheld or left out over the step, and why ("wal.records, wal.fpi, wal.stat_bytes
    /// withheld: ..."); empty when every probe the server offers is in `probes`.
    std::vector<std::string> probe_notes;
    std::optional<ReplicationProbe> replication; ///< measured on a primary with standbys
    StepDetails details;

    /// The record of kind T, or nullptr when the step recorded another (or nothing).
    template <typename T>
    const T* as() const {
        return std::get_if<T>(&details);
    }

    template <typename T>
    T* as() {
        return std::get_if<T>(&details);
    }

    /// The checks of a sql or explain step; empty for the other kinds.
    const std::vector<CheckRecord>& checks() const;

    bool operator==(const StepRecord&) const = default;
};

} // namespace pglab::lab::store
