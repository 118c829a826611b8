// A worker thread (pgbench's -j): one event loop (io_uring or epoll) over its clients' connections,
// its own random generators and its own statistics, merged by the runner after the join.
#pragma once

#include "bench/client.hpp"
#include "bench/run_result.hpp"
#include "bench/run_shared.hpp"
#include "bench/tx_log.hpp"
#include "pg/batched_io.hpp"
#include "util/periodic_tick.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct epoll_event;

namespace pglab::bench {

class Worker {
public:
    /// `clients` are this worker's share; the generators are seeded by the runner in pgbench's
    /// derivation order.
    Worker(RunShared& shared, int index, std::vector<std::unique_ptr<Client>> clients,
           script::Prng choose, script::Prng throttle, script::Prng sample);
    ~Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    /// The thread body: connect every client concurrently, wait for the others, run the loop.
    void run();

    /// The CPU run() pins its thread to before connecting; -1 leaves it to the scheduler.
    void set_cpu(int cpu) { m_cpu = cpu; }

    /// The CPU the thread runs pinned to; -1 when it is not pinned (or the kernel refused).
    int cpu() const { return m_cpu; }

    int index() const { return m_index; }

    /// Whether the run's sockets went through io_uring (BatchedIo) rather than epoll.
    bool batched_io() const { return m_used_batched_io; }

    usec_t bench_start() const { return m_bench_start; }

    /// When this worker's last client finished (before its connections were closed).
    usec_t loop_end() const { return m_loop_end; }

    /// Whether every client of this worker has finished or aborted (readable from any thread).
    bool clients_done() const { return m_clients_done.load(std::memory_order_acquire); }

    ProgressCounters& progress() { return m_progress; }

    /// Statistics of this worker (valid after run() returned).
    TxStats& total() { return m_total; }

    std::vector<ScriptStats>& script_stats() { return m_scripts; }

    int64_t aborted_clients() const { return m_aborted; }

    usec_t conn_time_us() const { return m_conn_time; }

    /// How late the timer woke each client waiting for -R or \sleep (µs after its due time).
    const stats::LatencyHistogram& wakeup_error() const { return m_wakeup_error; }

    /// The error that ended the worker's setup, if any.
    const std::string& setup_error() const { return m_setup_error; }

    /// Opens the -l log file before the run; false with the error set.
    bool open_log(std::string& error);

private:
    // event loop (worker.cpp)
    bool connect_all();
    void loop();
    int wait_events(::epoll_event* events, usec_t wait_us);
    void start_batching();
    void start_tick();
    void abort_running(const char* what);
    void advance(Client& c);
    void wait_socket(Client& c);
    void forget_socket(Client& c);
    void wait_until(Client& c, usec_t when);
    void wait_for_time(Client& c, usec_t when);
    void client_done(Client& c);
    void give_up_if_overdue(usec_t now);

    // states (client_states.cpp); each returns true to go on, false to wait for an event
    bool on_choose_script(Client& c);
    bool on_prepare_throttle(Client& c);
    bool on_throttle(Client& c);
    bool on_start_tx(Client& c);
    bool on_connecting(Client& c);
    bool on_start_command(Client& c);
    bool on_sleep(Client& c);
    bool on_end_command(Client& c);
    bool on_error(Client& c);
    bool on_retry(Client& c);
    bool on_failure(Client& c);
    bool on_end_tx(Client& c);
    void abort_client(Client& c);

    // SQL (sql_command.cpp)
    bool start_sql(Client& c);
    bool send_sql(Client& c);
    bool on_wait_prepare(Client& c);
    bool on_wait_result(Client& c);
    bool on_wait_rollback(Client& c);
    bool handle_result(Client& c, pg::QueryResult& res, bool is_last);
    bool store_result_vars(Client& c, const pg::QueryResult& res);
    bool flush_output(Client& c);
    bool send_pending(Client& c);
    bool receive_input(Client& c);
    bool prepare_pipeline_statements(Client& c);

    // meta-commands (meta_command.cpp)
    bool run_meta(Client& c);
    /// The value of the command's expression; nullopt when it fails (said, and the client's
    /// failure recorded by meta_failed).
    std::optional<script::Value> evaluate_meta(Client& c, const script::Command& cmd);
    bool run_condition(Client& c, const script::Command& cmd, bool& taken);
    bool run_pipeline_command(Client& c, const script::Command& cmd);
    void meta_failed(Client& c, const script::Command& cmd, const char* what);
    /// `e` said, then meta_failed with pgbench's "execution of meta-command failed".
    void execution_failed(Client& c, const script::Command& cmd, const Error& e);

    // statistics (tx_record.cpp)
    void record_tx(Client& c, usec_t now, bool skipped);
    /// Hands the current second to the run's time series once `now` is past it.
    void roll_second(usec_t now);

    const script::Command& current_command(const Client& c) const;
    bool time_is_up(usec_t now) const;
    /// The clock at the end of the transaction this client just finished, or now when there is
    /// none: as pgbench's lazy clock, one reading ends a transaction and starts the next.
    usec_t tx_boundary_now() const;

    RunShared& m_shared;
    const RunConfig& m_config;
    int m_index;
    int m_cpu = -1;
    std::vector<std::unique_ptr<Client>> m_clients;
    script::Prng m_choose_rs;
    script::Prng m_throttle_rs;
    script::Prng m_sample_rs;

    int m_epoll = -1;
    util::PeriodicTick m_tick; ///< in the epoll set: waits with nothing due need no timeout
    std::unique_ptr<pg::BatchedIo> m_io; ///< io_uring for the connected clients' sockets, or null
    std::vector<uint32_t> m_ready;       ///< clients with news from m_io's last wait
    bool m_used_batched_io = false;
    bool m_have_pwait2 = true;                    ///< cleared when the kernel lacks epoll_pwait2
    std::vector<std::pair<usec_t, int>> m_timers; ///< min-heap of (wake time, client index)
    int m_active = 0;                             ///< clients not yet finished or aborted

    usec_t m_tx_end_now = 0; ///< set by on_end_tx, valid until advance() returns
    usec_t m_bench_start = 0;
    usec_t m_loop_end = 0;
    std::atomic<bool> m_clients_done{false};
    usec_t m_throttle_trigger = 0;
    usec_t m_conn_time = 0;
    usec_t m_interrupted_at = 0;
    int64_t m_aborted = 0;
    std::string m_setup_error;

    TxStats m_total;
    std::vector<ScriptStats> m_scripts;
    ProgressCounters m_progress;
    stats::LatencyHistogram m_wakeup_error;
    TxLog m_log;
    SecondAccumulator m_second;  ///< the current wall-clock second of the time series
    usec_t m_epoch_shift_us = 0; ///< wall clock - monotonic clock, fixed at the start
};

} // namespace pglab::bench
