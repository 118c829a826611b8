// Meta-commands of the client state machine: \set, \sleep, \shell, \setshell, conditionals
// and pipelines. Errors abort the client with pgbench's messages.
#include "bench/shell.hpp"
#include "bench/worker.hpp"
#include "util/log.hpp"

namespace pglab::bench {

void Worker::meta_failed(Client& c, const script::Command& cmd, const char* what) {
    log::error("client {} aborted in command {} ({}) of script {}; {}", c.id, c.command,
               cmd.meta_name, c.script, what);
    abort_client(c);
}

void Worker::execution_failed(Client& c, const script::Command& cmd, const Error& e) {
    log::error("{}", e.message);
    meta_failed(c, cmd, "execution of meta-command failed");
}

namespace {

void debug_meta(const Client& c, const script::Command& cmd, const script::VariableTable& vars) {
    std::string line = fmt::format("client {} executing \\{}", c.id, cmd.meta_name);
    if (cmd.var_slot >= 0) {
        line += " ";
        line += vars.name(cmd.var_slot);
    }
    for (const auto& arg : cmd.args) {
        line += arg.var_slot >= 0 ? " :" : " ";
        line += arg.text;
    }
    log::debug("{}", line);
}

} // namespace

std::optional<script::Value> Worker::evaluate_meta(Client& c, const script::Command& cmd) {
    script::EvalContext ctx{c.vars, c.prng, c.script, c.command + 1};
    auto v = script::evaluate(*cmd.expr, ctx);
    if (!v) {
        if (!v.error().message.empty()) { // empty: pgbench says nothing (empty variable)
            log::error("{}", v.error().message);
        }
        meta_failed(c, cmd, "evaluation of meta-command failed");
        return std::nullopt;
    }
    return std::move(*v);
}

bool Worker::run_meta(Client& c) {
    const script::Command& cmd = current_command(c);
    if (log::debug_enabled()) {
        debug_meta(c, cmd, m_config.scripts.variables());
    }
    c.state = ClientState::end_command;
    switch (cmd.meta) {
    case script::MetaKind::set: {
        auto v = evaluate_meta(c, cmd);
        if (!v) {
            return true;
        }
        const std::string& name = m_config.scripts.variables().name(cmd.var_slot);
        if (!script::valid_variable_name(name)) {
            log::error("set: invalid variable name: \"{}\"", name);
            meta_failed(c, cmd, "assignment of meta-command failed");
            return true;
        }
        c.vars.set(cmd.var_slot, *v);
        return true;
    }
    case script::MetaKind::sleep: {
        auto us = script::sleep_duration_us(cmd, c.vars);
        if (!us) {
            execution_failed(c, cmd, us.error());
            return true;
        }
        c.wake_at = now_us() + *us;
        c.state = ClientState::sleep;
        return true;
    }
    case script::MetaKind::shell:
    case script::MetaKind::setshell: {
        auto line = script::shell_command_line(cmd, c.vars);
        if (!line) {
            execution_failed(c, cmd, line.error());
            return true;
        }
        if (cmd.meta == script::MetaKind::shell) {
            auto st = run_shell(cmd.meta_name, *line);
            if (!st) {
                execution_failed(c, cmd, st.error());
            }
            return true;
        }
        auto value = run_setshell(cmd.meta_name, *line);
        if (!value) {
            execution_failed(c, cmd, value.error());
            return true;
        }
        c.vars.set(cmd.var_slot, script::Value::integer(*value));
        return true;
    }
    case script::MetaKind::if_:
    case script::MetaKind::elif:
    case script::MetaKind::else_:
    case script::MetaKind::endif: {
        bool taken = false;
        run_condition(c, cmd, taken);
        return true;
    }
    case script::MetaKind::startpipeline:
    case script::MetaKind::syncpipeline:
    case script::MetaKind::endpipeline:
        return run_pipeline_command(c, cmd);
    case script::MetaKind::none:
        break;
    }
    return true;
}

/// Conditionals jump over the branches not taken; nothing in them is evaluated.
bool Worker::run_condition(Client& c, const script::Command& cmd, bool& taken) {
    const bool arrived_by_jump = c.branch_pending;
    c.branch_pending = false;
    switch (cmd.meta) {
    case script::MetaKind::elif:
        if (!arrived_by_jump) {
            c.next_command = cmd.endif; // the previous branch ran
            return true;
        }
        [[fallthrough]];
    case script::MetaKind::if_: {
        auto v = evaluate_meta(c, cmd);
        if (!v) {
            return false;
        }
        auto t = script::truth(*v);
        if (!t) {
            log::error("{}", t.error().message);
            meta_failed(c, cmd, "evaluation of meta-command failed");
            return false;
        }
        taken = *t;
        if (!taken) {
            c.next_command = cmd.jump;
            c.branch_pending = true;
        }
        return true;
    }
    case script::MetaKind::else_:
        if (!arrived_by_jump) {
            c.next_command = cmd.endif;
        }
        return true;
    default:
        return true;
    }
}

bool Worker::run_pipeline_command(Client& c, const script::Command& cmd) {
    switch (cmd.meta) {
    case script::MetaKind::startpipeline:
        if (m_config.query_mode == script::QueryMode::simple) {
            meta_failed(c, cmd, "cannot use pipeline mode with the simple query protocol");
            return true;
        }
        if (c.conn.in_pipeline()) {
            meta_failed(c, cmd, "already in pipeline mode");
            return true;
        }
        if (m_config.query_mode == script::QueryMode::prepared) {
            prepare_pipeline_statements(c);
        }
        if (!c.conn.enter_pipeline()) {
            meta_failed(c, cmd, "failed to enter pipeline mode");
            return true;
        }
        c.pipeline_syncs = 0;
        return true;
    case script::MetaKind::syncpipeline:
    case script::MetaKind::endpipeline:
        if (!c.conn.in_pipeline()) {
            meta_failed(c, cmd, "not in pipeline mode");
            return true;
        }
        if (!c.conn.pipeline_sync()) {
            meta_failed(c, cmd, "failed to send a pipeline sync");
            return true;
        }
        ++c.pipeline_syncs;
        if (cmd.meta == script::MetaKind::syncpipeline) {
            return true;
        }
        c.state = ClientState::wait_result; // collect every result up to the last sync
        return flush_output(c);
    default:
        return true;
    }
}

} // namespace pglab::bench
