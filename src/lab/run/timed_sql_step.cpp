// lab/run: the `timed-sql` step: the statement between two reads of the server's clock, in one
// pipeline, so that the server's time excludes the round trips.
#include "lab/run/sql_step.hpp"
#include "lab/run/step_kinds.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>

namespace pglab::lab::run {

namespace {

using Clock = std::chrono::steady_clock;

/// Reads the results of one pipelined query up to and including its sync.
struct PipelinedResult {
    std::string error;
    std::string first_value;
    std::string cmd_tuples;
    Clock::time_point done;
};

PipelinedResult read_pipelined(pg::Connection& conn) {
    PipelinedResult r;
    for (;;) {
        pg::QueryResult res = conn.get_result();
        const pg::ResultStatus st = res.status();
        if (st == pg::ResultStatus::pipeline_sync) {
            break;
        }
        if (!res) {
            r.done = Clock::now();
            if (conn.connection_bad()) {
                // A lost connection (its server crashed or was stopped) never brings the sync:
                // libpq answers null for ever.
                if (r.error.empty()) {
                    r.error = util::first_line(conn.error_message());
                }
                if (r.error.empty()) {
                    r.error = "the connection to the server was lost";
                }
                break;
            }
            continue;
        }
        if (st == pg::ResultStatus::fatal_error || st == pg::ResultStatus::pipeline_aborted) {
            if (r.error.empty()) {
                const char* m = res.error_message();
                r.error = m != nullptr && *m != '\0' ? m : "pipeline aborted";
                while (!r.error.empty() && r.error.back() == '\n') {
                    r.error.pop_back();
                }
            }
        } else if (res.ntuples() > 0 && res.nfields() > 0) {
            r.first_value = res.value(0, 0);
            r.cmd_tuples = std::to_string(res.ntuples());
        }
    }
    return r;
}

/// The statement between two reads of the server's clock, sent as one pipeline.
struct BetweenClocks {
    Clock::time_point sent;
    PipelinedResult before;
    PipelinedResult statement;
    PipelinedResult after;
};

Result<BetweenClocks> run_between_clocks(pg::Connection& conn, const std::string& statement) {
    static constexpr const char* k_clock =
        "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint";
    BetweenClocks out;
    out.sent = Clock::now();
    bool sent = conn.enter_pipeline();
    sent = sent && conn.send_query_params(k_clock, 0, nullptr) && conn.pipeline_sync();
    sent = sent && conn.send_query_params(statement.c_str(), 0, nullptr) && conn.pipeline_sync();
    sent = sent && conn.send_query_params(k_clock, 0, nullptr) && conn.pipeline_sync();
    if (!sent) {
        std::string why = conn.error_message();
        conn.exit_pipeline();
        return make_error(std::move(why));
    }
    out.before = read_pipelined(conn);
    out.statement = read_pipelined(conn);
    out.after = read_pipelined(conn);
    conn.exit_pipeline();
    return out;
}

/// The statement timed, its rows counted and the times logged.
void time_statement(StepContext& ctx, pg::Connection& conn, const std::string& text,
                    store::TimedSqlStep& record, StepOutcome& out) {
    auto timed = run_between_clocks(conn, text);
    if (!timed) {
        out.fail(timed.error().message);
        return;
    }
    const PipelinedResult& before = timed->before;
    const PipelinedResult& stmt = timed->statement;
    const PipelinedResult& after = timed->after;
    const double client_ms =
        std::chrono::duration<double, std::milli>(stmt.done - timed->sent).count();
    record.client_ms = client_ms;
    if (before.error.empty() && after.error.empty() && !before.first_value.empty()
        && !after.first_value.empty()) {
        const long long b = std::atoll(before.first_value.c_str());
        const long long a = std::atoll(after.first_value.c_str());
        record.server_ms = static_cast<double>(a - b) / 1000.0;
    }
    if (!stmt.cmd_tuples.empty()) {
        record.rows = std::atoll(stmt.cmd_tuples.c_str());
    }
    append_log(ctx.log, fmt::format("{}\n-- client {:.3f} ms, server {} ms{}\n", text, client_ms,
                                    record.server_ms ? nlohmann::json(*record.server_ms).dump()
                                                     : std::string("null"),
                                    stmt.error.empty() ? "" : "\n-- error: " + stmt.error));
    out.wrote_log = true;
    if (const std::string& e = stmt.error.empty() ? before.error : stmt.error; !e.empty()) {
        out.fail(e);
    }
}

} // namespace

StepOutcome run_timed_sql(const experiment::Step& step, StepContext& ctx) {
    return run_one_statement<store::TimedSqlStep>(
        step, ctx, [&](pg::Connection& conn, const std::string& text, auto& record, auto& out) {
            time_statement(ctx, conn, text, record, out);
        });
}

} // namespace pglab::lab::run
