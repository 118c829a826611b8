// lab/run: what each step kind runs and records (its store:: record in StepOutcome::details),
// one file each: init_step, bench_step, sql_step (its own header), timed_sql_step,
// explain_step, shell_step, server_control_step, sleep_step. steps.cpp dispatches to them.
// Internal to lab/run.
#pragma once

#include "lab/run/steps.hpp"

namespace pglab::lab::run {

/// `init`: pgbench -i in-process, its messages in the step's log.
StepOutcome run_init(const experiment::Step& step, StepContext& ctx);

/// `bench`: pglab bench in-process, or a fleet of them under mpirun (`processes` > 1).
StepOutcome run_bench(const experiment::Step& step, StepContext& ctx);

/// `timed-sql`: one statement timed by the client and by the server's clock.
StepOutcome run_timed_sql(const experiment::Step& step, StepContext& ctx);

/// `explain`: EXPLAIN of one statement, summarised, and its `expect_plan` check.
StepOutcome run_explain(const experiment::Step& step, StepContext& ctx);

/// `shell`: a command through /bin/sh -c with the step's server in its environment.
StepOutcome run_shell(const experiment::Step& step, StepContext& ctx);

/// `restart`, `stop`, `start`, `promote`, `checkpoint`.
StepOutcome run_server_control(const experiment::Step& step, StepContext& ctx);

/// `sleep`.
StepOutcome run_sleep(const experiment::Step& step, StepContext& ctx);

} // namespace pglab::lab::run
