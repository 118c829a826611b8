// lab/run: executing one step of a run against the experiment's servers: the outcome every step
// kind returns, the context it runs in, and the dispatch to its kind. Internal to lab/run.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/plan/run_values.hpp"
#include "lab/run/left_waiting.hpp"
#include "lab/run/servers.hpp"
#include "lab/store/run_record.hpp"
#include "pg/connection.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::run {

/// What a step did: its status (ok unless something set another) and, when not ok, why.
struct StepOutcome {
    store::StepStatus status = store::StepStatus::ok;
    std::string error;
    store::StepDetails details; ///< what the step recorded of its own
    bool wrote_log = false;

    /// The step failed only because a functional check did not pass: the statements ran as
    /// written, so the run's later steps still run (and the run fails).
    bool check_failed = false;

    bool ok() const { return status == store::StepStatus::ok; }

    /// Marks the step failed because of `why` (a failure with no message still fails).
    void fail(std::string why);

    /// Marks the step failed by a check (`why`: "expect: expected ..., got ...").
    void fail_check(std::string why);

    /// Marks the step stopped: by a timeout (`timed_out`) or a signal (`interrupted`).
    void stop(store::StepStatus how, std::string why);
};

struct StepContext {
    const experiment::ExperimentSpec& spec;
    ServerSet& servers;
    const plan::RunValues& values;
    std::string server;        ///< the server the step runs on
    std::filesystem::path log; ///< the step's raw log
    /// The run's deadline (`run_timeout`), if it has one: a step that waits (shell, sleep) waits
    /// no longer; statements are cancelled and a bench is stopped by the run's Watchdog.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    int& restarts;         ///< restarts done in this run
    std::size_t index = 0; ///< the step's index in the experiment
    /// Where a `sql` step leaves a statement `expect_blocked` left waiting, and where the end of
    /// one is recorded when a later step of its session waits for it (null: not kept).
    LeftWaiting* left_waiting = nullptr;
};

/// An error as a step records it: "message (detail)".
std::string error_text(const Error& e);

/// Appends `text` to the step's log `path`.
void append_log(const std::filesystem::path& path, const std::string& text);

/// Runs `step` through the handler of its type (one table of step kinds).
StepOutcome execute_step(const experiment::Step& step, StepContext& ctx);

/// A step's failure that names where the step is written: "file:line:column: message (detail);
/// hint: ...".
std::string error_at_step(const experiment::Step& step, const Error& e);

/// `SET statement_timeout` to the step's `timeout`; nothing when it has none.
Status set_statement_timeout(pg::Connection& conn, const experiment::Step& step);

/// Undoes set_statement_timeout() (errors ignored: the session's next step sets its own).
void reset_statement_timeout(pg::Connection& conn, const experiment::Step& step);

} // namespace pglab::lab::run
