// lab/run: the `shell` step.
#include "lab/run/step_kinds.hpp"
#include "pg/conn_params.hpp"
#include "util/stop_signal.hpp"
#include "util/subprocess.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace pglab::lab::run {

namespace {

using Clock = std::chrono::steady_clock;

/// How the command runs: through /bin/sh in a process group of its own, with the step's server
/// in its environment, killed at its timeout or the run's deadline.
Result<util::SpawnOptions> spawn_options(const experiment::Step& step, StepContext& ctx,
                                         const std::string& command) {
    util::SpawnOptions opts;
    opts.argv = {"/bin/sh", "-c", command};
    // Its own process group: a timeout kills the command's children too (`sleep` under sh),
    // which would otherwise outlive it and hold its output open. Out of the terminal's group,
    // SIGINT reaches it through the stop request instead.
    opts.group = util::ProcessGroup::own;
    opts.stop = [] { return util::stop_requested(); };
    // The step's server in the child's environment (PGHOST, PGPORT, PGUSER, PGDATABASE, and
    // PGPASSWORD when it has one), so that psql reaches it as pglab does. A stopped server: none.
    // The password goes there only: not on the command line, not in the log.
    if (auto params = ctx.servers.params(ctx.server, "")) {
        auto env = pg::client_environment(*params);
        if (!env) {
            return make_error(
                fmt::format("server \"{}\": {}", ctx.server, error_text(env.error())));
        }
        opts.env = std::move(*env);
        opts.unset_env = {"PGSERVICE"}; // a service file's values would win over the variables
    }
    if (step.timeout_ms > 0) {
        opts.timeout = std::chrono::milliseconds(step.timeout_ms);
    }
    if (ctx.deadline) {
        const auto left = std::max<std::chrono::milliseconds>(
            std::chrono::duration_cast<std::chrono::milliseconds>(*ctx.deadline - Clock::now()),
            std::chrono::milliseconds(1));
        opts.timeout = opts.timeout ? std::min(*opts.timeout, left) : left;
    }
    return opts;
}

/// The step's status from how the command ended: killed by a signal to pglab, at the run's
/// deadline or at its own timeout, or its exit status.
void judge_end(const experiment::Step& step, const StepContext& ctx, const util::ProcessResult& res,
               StepOutcome& out) {
    constexpr const char* k_deadline = "the command was killed at the run's deadline (run_timeout)";
    if (res.stopped) {
        if (util::stop_signalled()) {
            out.stop(store::StepStatus::interrupted,
                     "interrupted by signal: the command was killed");
        } else {
            out.stop(store::StepStatus::timed_out, k_deadline);
        }
    } else if (res.timed_out) {
        if (ctx.deadline && Clock::now() >= *ctx.deadline) {
            out.stop(store::StepStatus::timed_out, k_deadline);
        } else {
            out.stop(store::StepStatus::timed_out,
                     fmt::format("timed out after {} ms: the command was killed", step.timeout_ms));
        }
    } else if (!res.status.success()) {
        out.fail("command " + res.status.describe());
    }
}

} // namespace

StepOutcome run_shell(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    auto cmd = ctx.values.expand(step.command);
    if (!cmd) {
        out.fail(error_text(cmd.error()));
        return out;
    }
    auto& record = out.details.emplace<store::ShellStep>();
    record.command = *cmd;
    auto opts = spawn_options(step, ctx, *cmd);
    if (!opts) {
        out.fail(opts.error().message);
        return out;
    }
    auto res = util::run_process(*opts);
    if (!res) {
        out.fail(error_text(res.error()));
        return out;
    }
    append_log(ctx.log,
               fmt::format("$ {}\n{}{}-- {}\n", *cmd, res->out, res->err, res->status.describe()));
    out.wrote_log = true;
    if (res->status.exited()) {
        record.exit_status = res->status.code;
    }
    judge_end(step, ctx, *res, out);
    return out;
}

} // namespace pglab::lab::run
