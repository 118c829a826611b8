// lab/run: the `explain` step.
#include "lab/run/explain_summary.hpp"
#include "lab/run/functional_checks.hpp"
#include "lab/run/sql_step.hpp"
#include "lab/run/step_kinds.hpp"

namespace pglab::lab::run {

StepOutcome run_explain(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    const auto one = start_one_statement<store::ExplainStep>(step, ctx, out);
    if (!one) {
        return out;
    }
    pg::Connection& conn = *one->session.conn;
    const std::string sql =
        (step.analyze ? "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " : "EXPLAIN (FORMAT JSON) ")
        + one->text;
    auto res = conn.exec(sql);
    reset_statement_timeout(conn, step);
    if (!res) {
        out.fail(res.error().message);
        return out;
    }
    std::string json;
    for (int i = 0; i < res->ntuples(); ++i) {
        json += res->value(i, 0);
    }
    append_log(ctx.log, sql + "\n" + json + "\n");
    out.wrote_log = true;
    auto summary = summarize_explain(json);
    if (!summary) {
        out.fail(summary.error().message);
        return out;
    }
    auto& record = std::get<store::ExplainStep>(out.details);
    record.explain = std::move(*summary);
    if (!step.expect_plan.empty()) {
        const CheckResult check = check_plan(step.expect_plan, record.explain->node_types);
        record.checks.push_back(check);
        if (!check.pass) {
            out.fail_check(failure_text(check));
        }
    }
    return out;
}

} // namespace pglab::lab::run
