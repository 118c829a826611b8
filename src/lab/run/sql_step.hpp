// lab/run: the `sql` step (statements in a session, their result rows kept, functional checks)
// and the sessions that sql, timed-sql and explain steps run in. Internal to lab/run.
#pragma once

#include "lab/run/steps.hpp"
#include "pg/connection.hpp"

#include <optional>
#include <string>
#include <utility>

namespace pglab::lab::run {

/// The session a step runs in, ready for a statement: a statement left running in it by an
/// earlier step (`wait = false`, `expect_blocked`) is waited for first, its end added to `log`.
struct StepSession {
    pg::Connection* conn = nullptr;
    std::string name;
};

Result<StepSession> step_session(const experiment::Step& step, StepContext& ctx, std::string& log);

/// The session and the expanded statement of a one-statement step (timed-sql, explain), the
/// step's statement_timeout set in the session (the step resets it); what waiting for the
/// session wrote is added to the step's log. Error as the step records it.
struct OneStatement {
    StepSession session;
    std::string text;
};

Result<OneStatement> one_statement(const experiment::Step& step, StepContext& ctx);

/// Runs a timed-sql or explain step: `body(conn, statement, record, out)` runs the statement in
/// the step's session under its timeout, which ends with the body; `record`, the kind's `Record`
/// with the session's name and the statement, is the outcome's details. The step fails without
/// calling `body` when there is no statement to run.
template <typename Record, typename Body>
StepOutcome run_one_statement(const experiment::Step& step, StepContext& ctx, Body&& body) {
    StepOutcome out;
    auto one = one_statement(step, ctx);
    if (!one) {
        out.fail(one.error().message);
        return out;
    }
    auto& record = out.details.emplace<Record>();
    record.session = one->session.name;
    record.statement = one->text;
    pg::Connection& conn = *one->session.conn;
    body(conn, std::as_const(one->text), record, out);
    reset_statement_timeout(conn, step);
    return out;
}

/// Runs a `sql` step.
StepOutcome run_sql(const experiment::Step& step, StepContext& ctx);

/// At the end of a run's steps: waits for the end of every statement `expect_blocked` left
/// waiting (each cancelled when only idle sessions still block it) and records it in `left`.
void finish_left_waiting(ServerSet& servers, LeftWaiting& left);

} // namespace pglab::lab::run
