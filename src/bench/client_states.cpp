// The client state machine outside SQL and meta-commands: choosing scripts, throttling,
// transactions, retries and failures (pgbench's advanceConnectionState, one function a state).
#include "bench/worker.hpp"
#include "util/log.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace pglab::bench {

const script::Command& Worker::current_command(const Client& c) const {
    return m_config.scripts.scripts()[static_cast<size_t>(c.script)]
        .commands[static_cast<size_t>(c.command)];
}

bool Worker::time_is_up(usec_t now) const {
    const usec_t end = m_shared.end_time.load(std::memory_order_relaxed);
    return end > 0 && now >= end;
}

usec_t Worker::tx_boundary_now() const {
    return m_tx_end_now != 0 ? m_tx_end_now : now_us();
}

bool Worker::on_choose_script(Client& c) {
    if (stop_requested() || time_is_up(tx_boundary_now())) {
        c.state = ClientState::finished;
        return true;
    }
    const auto& scripts = m_config.scripts.scripts();
    if (scripts.size() == 1) {
        c.script = 0;
    } else {
        const auto total = static_cast<uint64_t>(m_config.scripts.total_weight());
        auto w = static_cast<int64_t>(m_choose_rs.uint64_range(0, total - 1));
        int i = 0;
        do {
            w -= scripts[static_cast<size_t>(i++)].weight;
        } while (w >= 0);
        c.script = i - 1;
    }
    log::debug("client {} executing script \"{}\"", c.id,
               scripts[static_cast<size_t>(c.script)].desc);
    c.command = 0;
    if (m_config.rate_tps > 0) {
        m_tx_end_now = 0; // the transaction waits for its schedule: its start is read afresh
        c.state = ClientState::prepare_throttle;
    } else {
        c.state = ClientState::start_tx;
    }
    return true;
}

/// Schedules the next transaction of this thread's Poisson process (pgbench's
/// PREPARE_THROTTLE): the schedule advances from the start time, not from completions, so
/// lagging clients catch up; with -L, slots already too late to succeed are skipped.
bool Worker::on_prepare_throttle(Client& c) {
    const double delay_us = 1e6 / m_config.rate_tps * m_config.threads;
    for (;;) {
        const auto wait =
            static_cast<usec_t>(-std::log(1.0 - m_throttle_rs.next_double()) * delay_us + 0.5);
        m_throttle_trigger += wait;
        c.tx_scheduled = m_throttle_trigger;
        if (m_config.latency_limit_us <= 0) {
            break;
        }
        const usec_t now = now_us();
        if (!(m_throttle_trigger < now - m_config.latency_limit_us)
            || (m_config.transactions > 0 && c.tx_done >= m_config.transactions)) {
            break;
        }
        if (time_is_up(now)) {
            break;
        }
        record_tx(c, now, true);
        ++c.tx_done;
        if (m_config.transactions > 0 && c.tx_done >= m_config.transactions) {
            c.state = ClientState::finished;
            return true;
        }
    }
    const usec_t end = m_shared.end_time.load(std::memory_order_relaxed);
    if (end > 0 && c.tx_scheduled > end) {
        c.state = ClientState::finished;
        return true;
    }
    c.state = ClientState::throttle;
    return true;
}

bool Worker::on_throttle(Client& c) {
    if (now_us() < c.tx_scheduled) {
        wait_for_time(c, c.tx_scheduled);
        return false;
    }
    c.state = ClientState::start_tx;
    return true;
}

bool Worker::on_start_tx(Client& c) {
    if (m_config.connect_per_tx && !c.conn.valid()) {
        c.conn_begin = now_us();
        auto conn = pg::Connection::start_connect(m_config.conn);
        if (!conn) {
            log::error("{}", conn.error().message);
            log::error("client {} aborted while establishing connection", c.id);
            abort_client(c);
            return true;
        }
        c.conn = std::move(*conn);
        c.state = ClientState::connecting;
        return true;
    }
    c.tx_begin = tx_boundary_now();
    if (m_config.rate_tps <= 0) {
        c.tx_scheduled = c.tx_begin;
    }
    c.prng_at_start = c.prng;
    c.tries = 1;
    c.tx_error = TxError::none;
    c.state = ClientState::start_command;
    return true;
}

bool Worker::on_connecting(Client& c) {
    switch (c.conn.poll_connect()) {
    case pg::PollStatus::reading:
        c.want_write = false;
        wait_socket(c);
        return false;
    case pg::PollStatus::writing:
        c.want_write = true;
        wait_socket(c);
        return false;
    case pg::PollStatus::failed: {
        std::string msg = c.conn.error_message();
        while (!msg.empty() && msg.back() == '\n') {
            msg.pop_back();
        }
        log::error("{}", msg);
        log::error("client {} aborted while establishing connection", c.id);
        abort_client(c);
        return true;
    }
    case pg::PollStatus::ok:
        break;
    }
    c.want_write = false;
    c.conn.set_nonblocking(true);
    std::fill(c.prepared.begin(), c.prepared.end(), 0);
    const usec_t now = now_us();
    m_conn_time += now - c.conn_begin;
    // As pgbench: under -C the measured latency starts once the connection is made.
    c.tx_begin = now;
    if (m_config.rate_tps <= 0) {
        c.tx_scheduled = now;
    }
    c.prng_at_start = c.prng;
    c.tries = 1;
    c.tx_error = TxError::none;
    c.state = ClientState::start_command;
    return true;
}

bool Worker::on_start_command(Client& c) {
    const auto& script = m_config.scripts.scripts()[static_cast<size_t>(c.script)];
    if (static_cast<size_t>(c.command) >= script.commands.size()) {
        c.state = ClientState::end_tx;
        return true;
    }
    if (m_config.report_per_command) {
        c.cmd_begin = now_us();
    }
    c.next_command = c.command + 1;
    const script::Command& cmd = script.commands[static_cast<size_t>(c.command)];
    if (cmd.type == script::CommandType::sql) {
        return start_sql(c);
    }
    return run_meta(c);
}

bool Worker::on_sleep(Client& c) {
    if (now_us() < c.wake_at) {
        wait_for_time(c, c.wake_at);
        return false;
    }
    c.state = ClientState::end_command;
    return true;
}

bool Worker::on_end_command(Client& c) {
    if (m_config.report_per_command) {
        auto& cs =
            m_scripts[static_cast<size_t>(c.script)].commands[static_cast<size_t>(c.command)];
        cs.elapsed_us.add(static_cast<double>(now_us() - c.cmd_begin));
    }
    c.command = c.next_command;
    c.state = ClientState::start_command;
    return true;
}

/// A serialization failure, a deadlock or (--continue-on-error) another SQL error: leave the
/// failed transaction block before deciding whether to retry.
bool Worker::on_error(Client& c) {
    if (c.conn.in_pipeline()) {
        c.conn.exit_pipeline();
    }
    if (c.conn.in_transaction_block()) {
        if (!c.conn.send_query("ROLLBACK")) {
            log::error("client {} aborted: failed to send sql command for rolling back the failed "
                       "transaction",
                       c.id);
            abort_client(c);
            return true;
        }
        c.state = ClientState::wait_rollback;
        return flush_output(c);
    }
    c.state = ClientState::retry;
    return true;
}

namespace {

std::string tries_text(const RunConfig& config, const Client& c, usec_t now) {
    std::string s = fmt::format("(try {}", c.tries);
    if (config.max_tries > 0) {
        s += fmt::format("/{}", config.max_tries);
    }
    if (config.latency_limit_us > 0) {
        char buf[64];
        std::snprintf(buf, sizeof buf, ", %.3f%% of the maximum time of tries was used",
                      100.0 * static_cast<double>(now - c.tx_scheduled)
                          / static_cast<double>(config.latency_limit_us));
        s += buf;
    }
    s += ")";
    return s;
}

} // namespace

bool Worker::on_retry(Client& c) {
    const usec_t now = now_us();
    if (time_is_up(now) || stop_requested()) {
        // As pgbench: when the run is over, the failed attempt is neither retried nor counted.
        c.state = ClientState::finished;
        return true;
    }
    // Only serialization failures and deadlocks are retried; another error fails at once.
    const bool retryable = c.tx_error != TxError::other;
    const bool tries_left = m_config.max_tries == 0 || c.tries < m_config.max_tries;
    const bool time_left =
        m_config.latency_limit_us <= 0 || now - c.tx_scheduled <= m_config.latency_limit_us;
    if (retryable && tries_left && time_left) {
        if (m_config.verbose_errors) {
            log::info("client {} repeats the transaction after the error {}", c.id,
                      tries_text(m_config, c, now));
        }
        auto& cs =
            m_scripts[static_cast<size_t>(c.script)].commands[static_cast<size_t>(c.error_command)];
        ++cs.retries;
        ++c.tries;
        c.prng = c.prng_at_start;
        c.tx_error = TxError::none; // the new attempt starts clean: its outcome is its own
        c.command = 0;
        c.state = ClientState::start_command;
        return true;
    }
    if (m_config.verbose_errors) {
        log::info("client {} ends the failed transaction {}", c.id, tries_text(m_config, c, now));
    }
    c.state = ClientState::failure;
    return true;
}

bool Worker::on_failure(Client& c) {
    auto& cs =
        m_scripts[static_cast<size_t>(c.script)].commands[static_cast<size_t>(c.error_command)];
    ++cs.failures;
    c.state = ClientState::end_tx;
    return true;
}

bool Worker::on_end_tx(Client& c) {
    if (c.conn.in_pipeline()) {
        log::error("client {} aborted: end of script reached with pipeline open", c.id);
        abort_client(c);
        return true;
    }
    // As pgbench's CSTATE_END_TX: the transaction is counted before the open-block check.
    usec_t now = now_us();
    record_tx(c, now, false);
    if (c.tx_error == TxError::none && c.conn.in_transaction_block()) {
        log::error("client {} aborted: end of script reached without completing the last "
                   "transaction",
                   c.id);
        abort_client(c);
        return true;
    }
    ++c.tx_done;
    if (m_config.connect_per_tx) {
        c.conn.close();
        c.registered = false; // closing the socket removed it from the epoll set
        c.registered_fd = -1;
        const usec_t after = now_us();
        m_conn_time += after - now;
        now = after;
    }
    const bool all_done = m_config.transactions > 0 && c.tx_done >= m_config.transactions;
    c.state = all_done || time_is_up(now) ? ClientState::finished : ClientState::choose_script;
    m_tx_end_now = now;
    return true;
}

void Worker::abort_client(Client& c) {
    c.state = ClientState::aborted;
    if (m_config.exit_on_abort) {
        log::error("Run was aborted due to an error in thread {}", m_index);
        std::fflush(stdout);
        ::_exit(2);
    }
}

} // namespace pglab::bench
