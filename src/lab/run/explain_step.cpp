// lab/run: the `explain` step.
#include "lab/run/explain_summary.hpp"
#include "lab/run/functional_checks.hpp"
#include "lab/run/sql_step.hpp"
#include "lab/run/step_kinds.hpp"

namespace pglab::lab::run {

namespace {

void explain(const experiment::Step& step, StepContext& ctx, pg::Connection& conn,
             const std::string& statement, store::ExplainStep& record, StepOutcome& out) {
    const std::string sql =
        (step.analyze ? "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " : "EXPLAIN (FORMAT JSON) ")
        + statement;
    auto res = conn.exec(sql);
    if (!res) {
        out.fail(res.error().message);
        return;
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
        return;
    }
    record.explain = std::move(*summary);
    if (!step.expect_plan.empty()) {
        const CheckResult check = check_plan(step.expect_plan, record.explain->node_types);
        record.checks.push_back(check);
        if (!check.pass) {
            out.fail_check(failure_text(check));
        }
    }
}

} // namespace

StepOutcome run_explain(const experiment::Step& step, StepContext& ctx) {
    return run_one_statement<store::ExplainStep>(
        step, ctx,
        [&](pg::Connection& conn, const std::string& statement, auto& record, auto& out) {
            explain(step, ctx, conn, statement, record, out);
        });
}

} // namespace pglab::lab::run
