// SQL commands of the client state machine: sending in the three query modes, lazy
// preparation, reading results (\gset / \aset, errors, pipelines) without blocking.
#include "bench/worker.hpp"
#include "util/log.hpp"

#include <cstdlib>
#include <string_view>

namespace pglab::bench {

namespace {

/// libpq messages end with a newline; diagnostics add their own.
std::string_view trim_newline(const char* msg) {
    std::string_view s = msg != nullptr ? msg : "";
    while (!s.empty() && s.back() == '\n') {
        s.remove_suffix(1);
    }
    return s;
}

int prepared_index(const script::Command& cmd) {
    return cmd.prepared_index;
}

} // namespace

bool Worker::flush_output(Client& c) {
    if (!send_pending(c)) {
        return true; // aborted
    }
    if (c.state == ClientState::end_command) {
        return true; // pipelined: go on without waiting for the answer
    }
    if (m_io) {
        // Through the ring a read costs nothing until the answer is there: wait for it.
        wait_socket(c);
        return false;
    }
    // Read at once, as pgbench does, before polling: where the backend runs on the client's
    // CPU, it has usually answered by the time the send returns (pgbench reads without a
    // poll for 87% of the queries of `SELECT 1` at -c 2 -j 2 on 2 CPUs), and a poll first
    // would cost a system call a query more than pgbench.
    return true;
}

bool Worker::send_pending(Client& c) {
    switch (c.conn.flush()) {
    case pg::FlushStatus::done:
        c.want_write = false;
        return true;
    case pg::FlushStatus::more:
        c.want_write = true;
        return true;
    case pg::FlushStatus::failed:
        break;
    }
    log::error("client {} aborted in command {} (SQL) of script {}; SQL command send failed", c.id,
               c.command, c.script);
    abort_client(c);
    return false;
}

bool Worker::start_sql(Client& c) {
    const script::Command& cmd = current_command(c);
    if (c.conn.in_pipeline() && cmd.result_vars != script::ResultVars::none) {
        const bool gset = cmd.result_vars == script::ResultVars::gset;
        log::error("client {} aborted in command {} ({}) of script {}; \\{} is not allowed in "
                   "pipeline mode",
                   c.id, c.command, gset ? "gset" : "aset", c.script, gset ? "gset" : "aset");
        abort_client(c);
        return true;
    }
    if (m_config.query_mode == script::QueryMode::prepared && !c.conn.in_pipeline()) {
        const auto k = static_cast<size_t>(prepared_index(cmd));
        if (k >= c.prepared.size()) {
            c.prepared.resize(k + 1, 0);
        }
        if (c.prepared[k] == 0) {
            log::debug("client {} preparing {}", c.id, cmd.prepared_name);
            if (!c.conn.send_prepare(cmd.prepared_name.c_str(), cmd.parameterized_sql.c_str(),
                                     static_cast<int>(cmd.param_slots.size()))) {
                log::error("{}", trim_newline(c.conn.error_message().c_str()));
            }
            c.state = ClientState::wait_prepare;
            return flush_output(c);
        }
    }
    return send_sql(c);
}

bool Worker::send_sql(Client& c) {
    const script::Command& cmd = current_command(c);
    bool sent = false;
    switch (m_config.query_mode) {
    case script::QueryMode::simple:
        script::substitute_sql(cmd, c.vars, c.sql_buffer);
        log::debug("client {} sending {}", c.id, c.sql_buffer);
        sent = c.conn.send_query(c.sql_buffer.c_str());
        break;
    case script::QueryMode::extended:
    case script::QueryMode::prepared: {
        script::fill_params(cmd, c.vars, c.param_values, c.param_nulls);
        const size_t n = cmd.param_slots.size();
        c.param_ptrs.resize(n);
        for (size_t i = 0; i < n; ++i) {
            c.param_ptrs[i] = c.param_nulls[i] ? nullptr : c.param_values[i].c_str();
        }
        if (m_config.query_mode == script::QueryMode::extended) {
            log::debug("client {} sending {}", c.id, cmd.parameterized_sql);
            sent = c.conn.send_query_params(cmd.parameterized_sql.c_str(), static_cast<int>(n),
                                            c.param_ptrs.data());
        } else {
            log::debug("client {} sending {}", c.id, cmd.prepared_name);
            sent = c.conn.send_query_prepared(cmd.prepared_name.c_str(), static_cast<int>(n),
                                              c.param_ptrs.data());
        }
        break;
    }
    }
    if (!sent) {
        log::error("client {} aborted in command {} (SQL) of script {}; SQL command send failed",
                   c.id, c.command, c.script);
        abort_client(c);
        return true;
    }
    c.result_index = 0;
    c.draining = false;
    // In a pipeline, results are collected by \endpipeline.
    c.state = c.conn.in_pipeline() ? ClientState::end_command : ClientState::wait_result;
    return flush_output(c);
}

/// Sends what is still buffered, then reads what the server sent. False when the client had to
/// be aborted (the connection broke).
bool Worker::receive_input(Client& c) {
    if (c.want_write && !send_pending(c)) {
        return false;
    }
    if (!c.conn.consume_input()) {
        log::error("client {} aborted in command {} (SQL) of script {}; perhaps the backend died "
                   "while processing",
                   c.id, c.command, c.script);
        abort_client(c);
        return false;
    }
    return true;
}

bool Worker::on_wait_prepare(Client& c) {
    if (!receive_input(c)) {
        return true; // aborted
    }
    while (!c.conn.is_busy()) {
        pg::QueryResult res = c.conn.get_result();
        if (!res) {
            const script::Command& cmd = current_command(c);
            c.prepared[static_cast<size_t>(prepared_index(cmd))] = 1;
            return send_sql(c);
        }
        if (res.status() == pg::ResultStatus::fatal_error) {
            // As pgbench: a failed PREPARE is only reported; the execution will fail too.
            log::error("{}", trim_newline(res.error_message()));
        }
    }
    wait_socket(c);
    return false;
}

bool Worker::on_wait_result(Client& c) {
    log::debug("client {} receiving", c.id);
    if (!receive_input(c)) {
        return true; // aborted
    }
    const bool pipeline = c.conn.in_pipeline();
    for (;;) {
        if (c.conn.is_busy()) {
            wait_socket(c);
            return false;
        }
        pg::QueryResult res = c.conn.get_result();
        if (pipeline) {
            if (!res) {
                continue; // end of one pipelined query's results
            }
            const auto st = res.status();
            if (st == pg::ResultStatus::pipeline_sync) {
                if (--c.pipeline_syncs > 0) {
                    continue;
                }
                c.conn.exit_pipeline();
                c.state =
                    c.tx_error != TxError::none ? ClientState::error : ClientState::end_command;
                return true;
            }
            if (st == pg::ResultStatus::pipeline_aborted || c.tx_error != TxError::none) {
                continue;
            }
            if (!handle_result(c, res, false)) {
                return true;
            }
            continue;
        }
        if (!res) {
            if (c.draining) {
                c.draining = false;
                if (c.tx_error == TxError::other && c.conn.connection_bad()) {
                    // The error came with the connection's end: pgbench aborts the client.
                    log::error("client {} script {} aborted in command {} query {}: {}", c.id,
                               c.script, c.command, c.error_query, c.error_text);
                    abort_client(c);
                    return true;
                }
                c.state = c.tx_error != TxError::none ? ClientState::error : ClientState::aborted;
                return true;
            }
            if (c.held_result) {
                pg::QueryResult last = std::move(c.held_result);
                if (!store_result_vars(c, last)) {
                    return true;
                }
            }
            if (c.result_index == 0) {
                log::error("client {} command {}: no results", c.id, c.command);
                abort_client(c);
                return true;
            }
            c.state = ClientState::end_command;
            return true;
        }
        if (c.draining) {
            continue;
        }
        if (!handle_result(c, res, false)) {
            if (c.state == ClientState::aborted) {
                return true;
            }
            c.draining = true; // retryable error: read the rest before rolling back
        }
    }
}

/// One result of the current command. Returns false when the command failed: the client is
/// then aborted, or `tx_error` says which error ends (or retries) the transaction.
bool Worker::handle_result(Client& c, pg::QueryResult& res, bool /*is_last*/) {
    const script::Command& cmd = current_command(c);
    switch (res.status()) {
    case pg::ResultStatus::command_ok:
    case pg::ResultStatus::tuples_ok:
    case pg::ResultStatus::empty_query:
        if (cmd.result_vars != script::ResultVars::none && !c.conn.in_pipeline()) {
            if (c.held_result) {
                // Not the last result: \gset ignores it, \aset stores it.
                pg::QueryResult prev = std::move(c.held_result);
                if (cmd.result_vars == script::ResultVars::aset && !store_result_vars(c, prev)) {
                    return false;
                }
            }
            c.held_result = std::move(res);
        }
        ++c.result_index;
        return true;
    case pg::ResultStatus::copy_in:
    case pg::ResultStatus::copy_out:
    case pg::ResultStatus::copy_both:
        log::error("COPY is not supported in pgbench, aborting");
        abort_client(c);
        return false;
    case pg::ResultStatus::fatal_error:
    case pg::ResultStatus::nonfatal_error: {
        const auto cls = res.error_class();
        const bool retryable =
            cls == pg::ErrorClass::serialization || cls == pg::ErrorClass::deadlock;
        // pgbench 19's --continue-on-error: any other SQL error fails the transaction, unless
        // the connection is gone (then the client aborts, as it does without the option).
        const bool continues =
            m_config.continue_on_error && cls == pg::ErrorClass::other && !c.conn.connection_bad();
        if (retryable || continues) {
            if (m_config.verbose_errors) {
                log::info("client {} got an error in command {} (SQL) of script {}; {}", c.id,
                          c.command, c.script, trim_newline(res.error_message()));
            }
            if (continues) {
                c.tx_error = TxError::other;
                c.error_query = c.result_index;
                c.error_text = trim_newline(res.error_message());
            } else {
                c.tx_error = cls == pg::ErrorClass::serialization ? TxError::serialization
                                                                  : TxError::deadlock;
            }
            c.error_command = c.command;
            c.held_result = pg::QueryResult();
            return false;
        }
        [[fallthrough]];
    }
    default:
        log::error("client {} script {} aborted in command {} query {}: {}", c.id, c.script,
                   c.command, c.result_index, trim_newline(res.error_message()));
        c.held_result = pg::QueryResult();
        abort_client(c);
        return false;
    }
}

/// \gset / \aset: stores the last row of `res` into variables named prefix + column.
bool Worker::store_result_vars(Client& c, const pg::QueryResult& res) {
    const script::Command& cmd = current_command(c);
    const bool gset = cmd.result_vars == script::ResultVars::gset;
    const int rows = res.ntuples();
    if (gset && rows != 1) {
        log::error("client {} script {} command {} query {}: expected one row, got {}", c.id,
                   c.script, c.command, c.result_index - 1, rows);
        abort_client(c);
        return false;
    }
    if (rows <= 0) {
        return true; // \aset skips empty results
    }
    const int fields = res.nfields();
    for (int f = 0; f < fields; ++f) {
        c.sql_buffer.assign(cmd.var_prefix);
        c.sql_buffer.append(res.field_name(f));
        if (!script::valid_variable_name(c.sql_buffer)) {
            log::error("{}: invalid variable name: \"{}\"", gset ? "gset" : "aset", c.sql_buffer);
            log::error("client {} script {} command {} query {}: error storing into variable {}",
                       c.id, c.script, c.command, c.result_index - 1, c.sql_buffer);
            abort_client(c);
            return false;
        }
        const int slot = m_config.scripts.variables().find(c.sql_buffer);
        if (slot >= 0) { // a name no script reads needs no storage
            c.vars.set_string(slot, res.value(rows - 1, f));
        }
    }
    return true;
}

bool Worker::on_wait_rollback(Client& c) {
    if (c.want_write && !send_pending(c)) {
        return true;
    }
    if (!c.conn.consume_input()) {
        log::error("client {} aborted while rolling back the transaction after an error; perhaps "
                   "the backend died while processing",
                   c.id);
        abort_client(c);
        return true;
    }
    while (!c.conn.is_busy()) {
        pg::QueryResult res = c.conn.get_result();
        if (!res) {
            c.state = ClientState::retry;
            return true;
        }
        if (res.status() != pg::ResultStatus::command_ok) {
            log::error("client {} aborted while rolling back the transaction after an error; {}",
                       c.id, trim_newline(res.error_message()));
            abort_client(c);
            return true;
        }
    }
    wait_socket(c);
    return false;
}

/// Before entering a pipeline in prepared mode, pgbench prepares every statement up to the
/// matching \endpipeline (a pipeline cannot wait for a PREPARE in between).
bool Worker::prepare_pipeline_statements(Client& c) {
    const auto& cmds = m_config.scripts.scripts()[static_cast<size_t>(c.script)].commands;
    for (size_t i = static_cast<size_t>(c.command) + 1; i < cmds.size(); ++i) {
        const script::Command& cmd = cmds[i];
        if (cmd.type == script::CommandType::meta && cmd.meta == script::MetaKind::endpipeline) {
            break;
        }
        if (cmd.type != script::CommandType::sql) {
            continue;
        }
        const auto k = static_cast<size_t>(prepared_index(cmd));
        if (k >= c.prepared.size()) {
            c.prepared.resize(k + 1, 0);
        }
        if (c.prepared[k] != 0) {
            continue;
        }
        if (!c.conn.prepare_blocking(cmd.prepared_name.c_str(), cmd.parameterized_sql.c_str(),
                                     static_cast<int>(cmd.param_slots.size()))) {
            log::error("{}", trim_newline(c.conn.error_message().c_str()));
        }
        c.prepared[k] = 1;
    }
    return true;
}

} // namespace pglab::bench
