// lab/run: the `sql` step: its statements in one session, the last one's rows kept (bounded),
// its error with the SQLSTATE, and its checks (expect, expect_rows, expect_error,
// expect_blocked). A failed check fails the step as a check: the run's later steps still run.
#include "lab/run/sql_step.hpp"

#include "lab/run/functional_checks.hpp"
#include "util/stop_signal.hpp"

#include <fmt/format.h>

#include <poll.h>

#include <chrono>

namespace pglab::lab::run {

namespace {

using Clock = std::chrono::steady_clock;

/// How often a statement that must stay blocked is looked at (and a stop request noticed).
constexpr int k_poll_ms = 20;

/// The first line of libpq's error text, without its severity ("ERROR:  ").
std::string primary_message(const pg::QueryResult& r, const std::string& fallback) {
    std::string m = r ? r.error_message() : "";
    if (m.empty()) {
        m = fallback;
    }
    if (const auto colon = m.find(":  "); colon != std::string::npos && colon < 10) {
        m.erase(0, colon + 3);
    }
    if (const auto nl = m.find('\n'); nl != std::string::npos) {
        m.erase(nl);
    }
    return m.empty() ? std::string("failed (no message)") : m;
}

/// What the result `r` of a statement gave (its rows, or its error).
void take_result(const pg::QueryResult& r, pg::Connection& conn, StatementOutcome& out) {
    const pg::ResultStatus st = r.status();
    if (st == pg::ResultStatus::fatal_error || st == pg::ResultStatus::nonfatal_error || !r) {
        out = StatementOutcome{};
        out.failed = true;
        out.sqlstate = r.sqlstate();
        out.message = primary_message(r, conn.error_message());
        return;
    }
    if (st != pg::ResultStatus::tuples_ok) {
        out = StatementOutcome{}; // a command: no rows
        return;
    }
    out = StatementOutcome{};
    for (int c = 0; c < r.nfields(); ++c) {
        out.columns.emplace_back(r.field_name(c));
    }
    out.row_count = r.ntuples();
    const int kept = std::min(r.ntuples(), static_cast<int>(k_max_kept_rows));
    for (int i = 0; i < kept; ++i) {
        std::vector<std::optional<std::string>> row;
        for (int c = 0; c < r.nfields(); ++c) {
            row.push_back(r.is_null(i, c) ? std::nullopt
                                          : std::optional<std::string>(r.value(i, c)));
        }
        out.rows.push_back(std::move(row));
    }
}

std::string rows_log(const StatementOutcome& o) {
    std::string s;
    if (o.failed) {
        return "-- error: " + o.error_text() + "\n";
    }
    if (o.columns.empty()) {
        return s;
    }
    std::string header;
    for (const auto& c : o.columns) {
        header += (header.empty() ? "" : " | ") + c;
    }
    s += "-- " + header + "\n";
    for (const auto& row : o.rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            line += (c == 0 ? "" : " | ") + row[c].value_or("NULL");
        }
        s += "-- " + line + "\n";
    }
    s += fmt::format("-- ({} row{})\n", o.row_count, o.row_count == 1 ? "" : "s");
    return s;
}

/// Reads every result of the query in progress (blocking until it ends), the last one kept.
StatementOutcome finish_query(pg::Connection& conn) {
    StatementOutcome out;
    bool errored = false;
    for (;;) {
        pg::QueryResult r = conn.get_result();
        if (!r) {
            break;
        }
        if (!errored) { // the first error is the statement's
            take_result(r, conn, out);
            errored = out.failed;
        }
    }
    return out;
}

/// What the backend `pid` waits for, asked on the server's probe connection: "Lock: relation,
/// blocked by pid 1234"; "" when it cannot be told.
std::string waiting_on(StepContext& ctx, int pid) {
    auto probe = ctx.servers.probe_connection(ctx.server);
    if (!probe || pid <= 0) {
        return "";
    }
    auto r = (*probe)->exec(fmt::format(
        "SELECT coalesce(wait_event_type || ': ' || wait_event, state, ''), "
        "array_to_string(pg_blocking_pids(pid), ', ') FROM pg_stat_activity WHERE pid = {}",
        pid));
    if (!r || r->ntuples() != 1) {
        return "";
    }
    std::string s = r->value(0, 0);
    if (const std::string by = r->value(0, 1); !by.empty()) {
        s += (s.empty() ? "" : ", ") + std::string("blocked by pid ") + by;
    }
    return s;
}

struct BlockedWait {
    Clock::time_point sent;
    std::optional<double> completed_after_ms; ///< nullopt: still waiting at the bound
    bool stopped = false;                     ///< a signal or the run's deadline came first
};

/// Waits up to `bound_ms` for the query just sent on `conn` to end.
BlockedWait wait_blocked(pg::Connection& conn, std::int64_t bound_ms) {
    BlockedWait w;
    const Clock::time_point t0 = Clock::now();
    w.sent = t0;
    const Clock::time_point end = t0 + std::chrono::milliseconds(bound_ms);
    while (Clock::now() < end) {
        if (util::stop_requested()) {
            w.stopped = true;
            return w;
        }
        pollfd pfd{conn.socket(), POLLIN, 0};
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count();
        (void)::poll(&pfd, 1, static_cast<int>(std::clamp<long long>(left, 0, k_poll_ms)));
        if (!conn.consume_input() || !conn.is_busy()) {
            w.completed_after_ms =
                std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
            return w;
        }
    }
    return w;
}

/// How often a statement left running is asked whether only idle sessions block it.
constexpr auto k_blockers_period = std::chrono::milliseconds(200);

/// Whether backend `pid` waits for a lock that only idle sessions hold (idle, or idle in a
/// transaction: nothing pglab still runs can release it). Asked on the probe connection.
bool blocked_by_idle_sessions(ServerSet& servers, const std::string& server, int pid) {
    auto probe = servers.probe_connection(server);
    if (!probe || pid <= 0) {
        return false;
    }
    auto r = (*probe)->exec(
        fmt::format("SELECT count(*) > 0 AND bool_and(state LIKE 'idle%') FROM pg_stat_activity "
                    "WHERE pid = ANY (pg_blocking_pids({}))",
                    pid));
    return r && r->ntuples() == 1 && std::string_view(r->value(0, 0)) == "t";
}

/// Waits for the end of the statement left running on `conn` since `sent`. It is cancelled when
/// it waits only for idle sessions: the steps that could release it have run, so it would wait
/// for ever. A stop request (signal, run_timeout) ends it too: the Watchdog cancels it.
LateOutcome await_left_running(pg::Connection& conn, ServerSet& servers, const std::string& server,
                               Clock::time_point sent) {
    LateOutcome late;
    Clock::time_point asked = Clock::now();
    while (conn.consume_input() && conn.is_busy() && !util::stop_requested()) {
        if (Clock::now() - asked >= k_blockers_period) {
            if (blocked_by_idle_sessions(servers, server, conn.backend_pid())) {
                late.cancelled = "still blocked by idle sessions when its session's next step or "
                                 "the end of the run came: nothing was left to release it";
                if (auto probe = servers.probe_connection(server)) {
                    (void)(*probe)->exec(
                        fmt::format("SELECT pg_cancel_backend({})", conn.backend_pid()));
                }
                break;
            }
            asked = Clock::now();
        }
        pollfd pfd{conn.socket(), POLLIN, 0};
        (void)::poll(&pfd, 1, k_poll_ms);
    }
    late.outcome = finish_query(conn);
    late.waited_ms = std::chrono::duration<double, std::milli>(Clock::now() - sent).count();
    return late;
}

/// The step's checks against the last statement's outcome.
std::vector<CheckResult> evaluate_checks(const experiment::Step& step, StepContext& ctx,
                                         const StatementOutcome& last, std::string& problem) {
    std::vector<CheckResult> checks;
    const auto expand = [&](const experiment::TextField& f) {
        auto text = ctx.values.expand(f);
        if (!text) {
            problem = error_text(text.error());
            return std::string();
        }
        return *text;
    };
    if (step.expect) {
        checks.push_back(check_value(expand(*step.expect), last));
    }
    if (step.expect_rows) {
        std::vector<std::vector<std::string>> rows;
        for (const auto& row : *step.expect_rows) {
            std::vector<std::string> r;
            for (const auto& v : row) {
                r.push_back(expand(v));
            }
            rows.push_back(std::move(r));
        }
        checks.push_back(check_rows(rows, last));
    }
    if (!step.expect_error.empty()) {
        checks.push_back(check_error(step.expect_error, last));
    }
    return checks;
}

/// How a step's statements ran: what the last gave, its expect_blocked check, and whether a
/// signal or the run's deadline stopped the wait for it.
struct StatementsRun {
    StatementOutcome last;
    std::optional<CheckResult> blocked;
    bool stopped = false;
};

Result<std::vector<std::string>> expand_statements(const experiment::Step& step, StepContext& ctx) {
    std::vector<std::string> statements;
    for (const auto& f : step.statements) {
        PGLAB_TRY_ASSIGN(std::string text, ctx.values.expand(f));
        statements.push_back(std::move(text));
    }
    return statements;
}

/// The last statement of a step that leaves it running (`wait = false`, `expect_blocked`): sent,
/// then for expect_blocked watched until its bound, and left waiting (for a later step of its
/// session, or the end of the run) when it is still blocked then.
void send_left_running(const experiment::Step& step, StepContext& ctx, const StepSession& session,
                       const std::string& statement, StatementsRun& ran, std::string& log) {
    pg::Connection& conn = *session.conn;
    if (!conn.send_query(statement.c_str())) {
        ran.last.failed = true;
        ran.last.message = conn.error_message();
        log += "-- error: " + ran.last.message + "\n";
        return;
    }
    if (step.expect_blocked_ms <= 0) {
        log += "-- sent without waiting\n";
        return;
    }
    const BlockedWait w = wait_blocked(conn, step.expect_blocked_ms);
    if (w.stopped) {
        ran.stopped = true;
        return;
    }
    const std::string on =
        w.completed_after_ms ? std::string() : waiting_on(ctx, conn.backend_pid());
    if (w.completed_after_ms) {
        ran.last = finish_query(conn);
    } else if (ctx.left_waiting != nullptr) {
        ctx.left_waiting->add({ctx.index, ctx.server, session.name, w.sent});
    }
    ran.blocked = check_blocked(step.expect_blocked_ms, w.completed_after_ms, on, ran.last);
    log += "-- " + ran.blocked->actual.get<std::string>() + "\n";
}

/// Runs the statements in order until one fails, each written to the step's log before it runs
/// (the server's notices about it follow it there); the rows of each go to `log`.
StatementsRun run_statements(const experiment::Step& step, StepContext& ctx,
                             const StepSession& session, const std::vector<std::string>& statements,
                             std::string& log) {
    StatementsRun ran;
    const bool left_running = !step.wait || step.expect_blocked_ms > 0;
    for (std::size_t i = 0; i < statements.size(); ++i) {
        append_log(ctx.log, log + statements[i] + "\n");
        log.clear();
        if (i + 1 == statements.size() && left_running) {
            send_left_running(step, ctx, session, statements[i], ran, log);
            break;
        }
        take_result(session.conn->exec_result(statements[i]), *session.conn, ran.last);
        log += rows_log(ran.last);
        if (ran.last.failed) {
            break;
        }
    }
    return ran;
}

/// After the statements: the step's statement_timeout reset (unless its last statement is left
/// running), and a failed transaction rolled back: it would refuse every later statement of the
/// session.
void end_statements(const experiment::Step& step, pg::Connection& conn, std::string& log) {
    if (step.wait && step.expect_blocked_ms <= 0) {
        reset_statement_timeout(conn, step);
    }
    if (conn.in_failed_transaction()) {
        (void)conn.exec_command("ROLLBACK");
        log += "-- the failed transaction was rolled back\n";
    }
}

/// The step's checks, recorded and judged: a check that does not pass fails the step (its later
/// steps still run); without checks, a statement that failed fails it.
void judge_checks(const experiment::Step& step, StepContext& ctx, const StatementsRun& ran,
                  StepOutcome& out, store::SqlStep& record) {
    std::string problem;
    std::vector<CheckResult> checks = evaluate_checks(step, ctx, ran.last, problem);
    if (ran.blocked) {
        checks.push_back(*ran.blocked);
    } else if (step.expect_blocked_ms > 0) { // an earlier statement failed: the last was not sent
        checks.push_back(check_blocked(step.expect_blocked_ms, 0.0, "", ran.last));
    }
    if (!problem.empty()) {
        out.fail(problem);
        return;
    }
    if (checks.empty()) {
        if (ran.last.failed) {
            out.fail(ran.last.error_text());
        }
        return;
    }
    record.checks = std::move(checks);
    for (const auto& c : record.checks) {
        if (!c.pass) {
            out.fail_check(failure_text(c));
            return;
        }
    }
}

} // namespace

Result<StepSession> step_session(const experiment::Step& step, StepContext& ctx, std::string& log) {
    StepSession ref;
    ref.name = step.session.empty() ? "default" : step.session;
    std::string database;
    for (const auto& s : ctx.spec.sessions) {
        if (s.name == ref.name) {
            database = s.database;
        }
    }
    PGLAB_TRY_ASSIGN(ref.conn, ctx.servers.session(ctx.server, ref.name, database));
    if (ref.conn->is_busy()) {
        log +=
            fmt::format("-- waiting for the statement left running in session \"{}\"\n", ref.name);
        const auto left = ctx.left_waiting != nullptr ? ctx.left_waiting->take(ctx.server, ref.name)
                                                      : std::nullopt;
        const LateOutcome late = await_left_running(*ref.conn, ctx.servers, ctx.server,
                                                    left ? left->sent : Clock::now());
        log += "-- it ended: " + late_text(late) + "\n";
        if (left) {
            ctx.left_waiting->ended(left->step, late);
        }
    }
    return ref;
}

Result<OneStatement> one_statement(const experiment::Step& step, StepContext& ctx) {
    std::string waited;
    auto session = step_session(step, ctx, waited);
    append_log(ctx.log, waited);
    if (!session) {
        return make_error(error_text(session.error()));
    }
    auto text = ctx.values.expand(step.statements.at(0));
    if (!text) {
        return make_error(error_text(text.error()));
    }
    if (auto st = set_statement_timeout(*session->conn, step); !st) {
        return make_error(error_text(st.error()));
    }
    return OneStatement{*session, std::move(*text)};
}

StepOutcome run_sql(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    std::string log;
    auto session = step_session(step, ctx, log);
    if (!session) {
        out.fail(error_text(session.error()));
        return out;
    }
    pg::Connection& conn = *session->conn;
    auto& record = out.details.emplace<store::SqlStep>();
    record.session = session->name;
    auto statements = expand_statements(step, ctx);
    if (!statements) {
        out.fail(error_text(statements.error()));
        return out;
    }
    record.statements = *statements;
    if (auto st = set_statement_timeout(conn, step); !st) {
        out.fail(error_text(st.error()));
        return out;
    }
    const StatementsRun ran = run_statements(step, ctx, *session, *statements, log);
    if (ran.stopped) {
        out.stop(util::stop_signalled() ? store::StepStatus::interrupted
                                        : store::StepStatus::timed_out,
                 util::stop_signalled() ? "interrupted by signal"
                                        : "stopped at the run's deadline (run_timeout)");
        append_log(ctx.log, log);
        out.wrote_log = true;
        return out;
    }
    end_statements(step, conn, log);
    append_log(ctx.log, log);
    out.wrote_log = true;
    const StatementOutcome& last = ran.last;
    if (!last.rows.empty() && !last.rows[0].empty() && last.rows[0][0]) {
        record.result = *last.rows[0][0];
    }
    record.last = statement_record(last);
    judge_checks(step, ctx, ran, out, record);
    return out;
}

void finish_left_waiting(ServerSet& servers, LeftWaiting& left) {
    for (const auto& e : left.take_all()) {
        pg::Connection* session = servers.open_session(e.server, e.session);
        if (session == nullptr) {
            continue; // its session was closed (a restart): its end is unknown
        }
        left.ended(e.step, await_left_running(*session, servers, e.server, e.sent));
    }
}

} // namespace pglab::lab::run
