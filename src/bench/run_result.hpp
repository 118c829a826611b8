// What a finished (or interrupted) run measured: merged statistics of all workers. The report
// (output/) and the exporters read only this, so text and JSON always agree.
#pragma once

#include "bench/time_series.hpp"
#include "stats/latency_histogram.hpp"
#include "stats/simple_stats.hpp"
#include "util/clock.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pglab::bench {

/// Transaction counters and latency, pgbench's StatsData. Identities:
/// all = skipped + count + failures; failures = serialization + deadlock + other (other SQL
/// errors fail a transaction only under --continue-on-error; without it they abort the client).
struct TxStats {
    int64_t count = 0;   ///< successful transactions
    int64_t skipped = 0; ///< -R with -L: not sent because already too late
    int64_t serialization_failures = 0;
    int64_t deadlock_failures = 0;
    int64_t other_failures = 0;        ///< --continue-on-error (19): other SQL errors
    int64_t retried = 0;               ///< successful or failed transactions retried at least once
    int64_t retries = 0;               ///< total retries
    int64_t late = 0;                  ///< -L: successful transactions above the limit
    stats::SimpleStats latency_us;     ///< successful transactions, from the scheduled start
    stats::SimpleStats lag_us;         ///< -R: actual start - scheduled start
    stats::LatencyHistogram histogram; ///< latency from the scheduled start, always
    stats::LatencyHistogram service_histogram; ///< -R: latency from the actual start

    int64_t failures() const { return serialization_failures + deadlock_failures + other_failures; }

    void merge(const TxStats& o);
};

/// Per-command statistics (-r): elapsed time of each execution, failures and retries.
struct CommandStats {
    stats::SimpleStats elapsed_us;
    int64_t failures = 0;
    int64_t retries = 0;

    void merge(const CommandStats& o);
};

struct ScriptStats {
    TxStats tx;
    std::vector<CommandStats> commands; ///< one per command of the script

    void merge(const ScriptStats& o);
};

/// One process of a fleet run (src/fleet/, under mpirun): what it ran and what it cost.
struct ProcessStats {
    int rank = 0;
    std::string host;
    int64_t pid = 0;
    int clients = 0;
    int threads = 0;
    int64_t transactions = 0; ///< successful transactions
    double tps = 0;           ///< its own transactions over its own measured period
    double cpu_s = 0;         ///< user + system CPU time of the process during the run
    double cpu_share = 0;     ///< cpu_s / (measured period x the CPUs its threads could use)
    bool cpu_bound = false;   ///< cpu_share >= 0.9: the client, not the server, may be the limit
    usec_t start_skew_us = 0; ///< its measured start minus the fleet's earliest (wall clock)
    bool lost = false;        ///< died before reporting: counters from its last heartbeat only
};

/// The fleet's own figures, present only when several processes ran the benchmark.
struct FleetStats {
    std::vector<ProcessStats> processes; ///< by rank
    usec_t merge_us = 0;                 ///< rank 0: receiving, parsing and merging the results
};

struct RunResult {
    std::string client_version; ///< "15.18 (Debian 15.18-0+deb12u1)" style, for the banner
    std::string server_version; ///< server_version parameter
    int server_version_num = 0;
    int scale = 1;                ///< as reported ("scaling factor")
    std::string partition_method; ///< "range"/"hash", empty when not partitioned
    int partitions = 0;

    TxStats total;
    std::vector<ScriptStats> scripts; ///< one per script, in load order

    usec_t bench_duration_us = 0; ///< end - earliest thread start (after connections)
    usec_t conn_total_us = 0;     ///< initial connection time (without -C) or the sum of
                                  ///< connect/disconnect times (with -C)
    int64_t aborted_clients = 0;  ///< clients that did not reach FINISHED
    std::vector<int> thread_cpus; ///< per worker thread, the CPU it was pinned to (-1: none)
    /// Per worker thread, how its sockets were driven: "io_uring" (batched) or "epoll".
    std::vector<std::string> thread_socket_io;
    /// -R and \sleep: how late each timed wait ended, actual wake-up - due time (µs).
    stats::LatencyHistogram wakeup_error;
    bool interrupted = false; ///< stopped by SIGINT/SIGTERM
    int stop_signal = 0;      ///< which of them, 0 when not interrupted

    usec_t start_wall_us = 0; ///< epoch µs when the measured period started

    /// Server settings that shape the results (name, current_setting()), read on the setup
    /// connection; empty when they could not be read.
    std::vector<std::pair<std::string, std::string>> settings;
    std::vector<SecondStats> series; ///< one entry per wall-clock second, in order
    FleetStats fleet;                ///< empty processes in a single process
};

} // namespace pglab::bench
