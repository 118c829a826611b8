// lab/run: the steps that act on a server: restart, stop, start, promote, checkpoint.
#include "lab/run/step_kinds.hpp"

#include <fmt/format.h>

namespace pglab::lab::run {

namespace {

/// The spec's mode ("smart", "fast", "immediate"; checked when the file was read).
server::ShutdownMode shutdown_mode(const std::string& mode) {
    if (mode == "smart") {
        return server::ShutdownMode::smart;
    }
    return mode == "immediate" ? server::ShutdownMode::immediate : server::ShutdownMode::fast;
}

} // namespace

StepOutcome run_server_control(const experiment::Step& step, StepContext& ctx) {
    StepOutcome out;
    const ServerState& state = ctx.servers.at(ctx.server);
    Status st;
    switch (step.type) {
    case experiment::StepType::restart:
        out.details = store::ShutdownStep{step.mode};
        st = ctx.servers.restart(ctx.server, shutdown_mode(step.mode));
        if (st) {
            ++ctx.restarts;
        }
        break;
    case experiment::StepType::stop:
    case experiment::StepType::start:
        if (state.existing()) {
            st = make_error(fmt::format("server \"{}\" is an existing server (conninfo): pglab "
                                        "does not stop or start it",
                                        ctx.server));
            break;
        }
        if (step.type == experiment::StepType::start) {
            st = ctx.servers.start(ctx.server);
            break;
        }
        out.details = store::ShutdownStep{step.mode};
        st = ctx.servers.stop(ctx.server, shutdown_mode(step.mode));
        break;
    case experiment::StepType::promote:
        st = ctx.servers.promote(ctx.server);
        if (!st) {
            out.fail(error_at_step(step, st.error()));
            return out;
        }
        break;
    case experiment::StepType::checkpoint: {
        auto conn = ctx.servers.probe_connection(ctx.server);
        st = conn ? (*conn)->exec_command("CHECKPOINT") : Status(conn.error());
        break;
    }
    default:
        st = make_error(fmt::format("step \"{}\" is not supported", step_type_name(step.type)));
    }
    if (!st) {
        out.fail(error_text(st.error()));
    }
    return out;
}

} // namespace pglab::lab::run
