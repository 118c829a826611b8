// lab/run: one step of a run dispatched to its kind (one table of step kinds; each kind in a file
// of its own, step_kinds.hpp), and what the kinds share: the outcome, the log, error texts.
#include "lab/run/steps.hpp"

#include "lab/run/sql_step.hpp"
#include "lab/run/step_kinds.hpp"

#include <fmt/format.h>

#include <fstream>

namespace pglab::lab::run {

namespace {

/// The handler of each step type.
struct StepKind {
    experiment::StepType type;
    StepOutcome (*run)(const experiment::Step&, StepContext&);
};

constexpr StepKind k_step_kinds[] = {
    {experiment::StepType::init, run_init},
    {experiment::StepType::bench, run_bench},
    {experiment::StepType::sql, run_sql},
    {experiment::StepType::timed_sql, run_timed_sql},
    {experiment::StepType::explain, run_explain},
    {experiment::StepType::restart, run_server_control},
    {experiment::StepType::stop, run_server_control},
    {experiment::StepType::start, run_server_control},
    {experiment::StepType::promote, run_server_control},
    {experiment::StepType::checkpoint, run_server_control},
    {experiment::StepType::sleep, run_sleep},
    {experiment::StepType::shell, run_shell},
};

} // namespace

std::string error_at_step(const experiment::Step& step, const Error& e) {
    std::string s = error_text(e);
    if (step.pos.known()) {
        s = step.pos.to_string() + ": " + s;
    }
    if (!e.hint.empty()) {
        s += "; hint: " + e.hint;
    }
    return s;
}

Status set_statement_timeout(pg::Connection& conn, const experiment::Step& step) {
    if (step.timeout_ms <= 0) {
        return {};
    }
    return conn.exec_command(fmt::format("SET statement_timeout = {}", step.timeout_ms));
}

void reset_statement_timeout(pg::Connection& conn, const experiment::Step& step) {
    if (step.timeout_ms > 0) {
        (void)conn.exec_command("RESET statement_timeout");
    }
}

std::string error_text(const Error& e) {
    std::string s = e.message;
    if (!e.detail.empty()) {
        s += " (" + e.detail + ")";
    }
    return s;
}

void append_log(const std::filesystem::path& path, const std::string& text) {
    if (text.empty()) {
        return;
    }
    std::ofstream out(path, std::ios::app);
    out << text;
}

void StepOutcome::fail_check(std::string why) {
    fail(std::move(why));
    check_failed = true;
}

void StepOutcome::fail(std::string why) {
    status = store::StepStatus::failed;
    error = why.empty() ? std::string("failed (no message; see the step's log)") : std::move(why);
}

void StepOutcome::stop(store::StepStatus how, std::string why) {
    status = how;
    error = std::move(why);
}

StepOutcome execute_step(const experiment::Step& step, StepContext& ctx) {
    for (const auto& kind : k_step_kinds) {
        if (kind.type == step.type) {
            return kind.run(step, ctx);
        }
    }
    StepOutcome out;
    out.fail(fmt::format("step type \"{}\" has no handler", experiment::step_type_name(step.type)));
    return out;
}

} // namespace pglab::lab::run
