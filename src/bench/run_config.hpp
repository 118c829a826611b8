// Everything a benchmark run needs, validated (by cli/) before any connection is made.
#pragma once

#include "pg/conn_params.hpp"
#include "script/command.hpp"
#include "script/loader.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compat/pgbench_profile.hpp"

namespace pglab::bench {

class RunHooks;

/// A -D NAME=VALUE definition, in command-line order.
struct Define {
    std::string name;
    std::string value;
};

/// How a worker thread drives its clients' sockets once they are connected.
enum class SocketIo {
    /// io_uring for a thread of k_ring_min_clients to k_ring_max_clients clients, else libpq's
    /// own calls: with fewer, a ring's wait costs more than pgbench's send and receive; with
    /// more, the server answers fewer transactions a second when its clients wait on a ring.
    automatic,
    ring,  ///< io_uring however few clients (--io-uring), where the kernel allows it
    epoll, ///< libpq's own calls and epoll (--no-io-uring)
};

/// The clients a thread batches through io_uring by default. Measured on 2 CPUs (`SELECT 1`,
/// -M prepared, -j 2; bench/NOTEBOOK.md): client CPU a transaction against pgbench 15 at 2
/// clients a thread 1.14x through the ring and 1.07x without, at 4 clients 0.91x and 1.02x;
/// the ring against libpq's calls at 16 clients 0.82x the CPU in the same time, at 64 clients
/// 0.72x the CPU but 1.23x the time (select-only 1.13x), at 250 clients 2.2x the time.
constexpr int k_ring_min_clients = 4;
constexpr int k_ring_max_clients = 16;

/// $PGLAB_IO_URING's names of the modes.
inline constexpr std::pair<SocketIo, const char*> k_socket_io_names[] = {
    {SocketIo::automatic, "auto"},
    {SocketIo::ring, "always"},
    {SocketIo::epoll, "never"},
};

/// Whether a thread of `clients` clients drives them through io_uring under `mode` (where the
/// kernel allows it).
constexpr bool uses_ring(SocketIo mode, size_t clients) {
    return mode == SocketIo::ring
           || (mode == SocketIo::automatic && clients >= static_cast<size_t>(k_ring_min_clients)
               && clients <= static_cast<size_t>(k_ring_max_clients));
}

struct RunConfig {
    /// The pgbench release whose messages and report this run reproduces (static storage).
    const compat::PgbenchProfile* pgbench = &compat::default_pgbench_profile();
    pg::ConnParams conn;
    script::ScriptSet scripts; ///< loaded and compiled for `query_mode`
    script::QueryMode query_mode = script::QueryMode::simple;
    std::vector<Define> defines;

    int clients = 1;                 ///< -c
    int threads = 1;                 ///< -j, already clamped to `clients`
    int64_t transactions = 10;       ///< -t per client (0 when -T)
    int duration_s = 0;              ///< -T, 0 when -t
    bool connect_per_tx = false;     ///< -C
    bool no_vacuum = false;          ///< -n
    bool vacuum_accounts = false;    ///< -v
    int scale = 1;                   ///< -s (for custom scripts; builtins read the database)
    bool scale_given = false;        ///< -s was given (warning when a builtin overrides it)
    int progress_s = 0;              ///< -P, 0 = off
    bool progress_timestamp = false; ///< --progress-timestamp
    bool report_per_command = false; ///< -r
    double rate_tps = 0;             ///< -R, 0 = unthrottled
    int64_t latency_limit_us = 0;    ///< -L in µs, 0 = off
    uint32_t max_tries = 1;          ///< --max-tries, 0 = unlimited
    bool failures_detailed = false;  ///< --failures-detailed
    bool verbose_errors = false;     ///< --verbose-errors
    bool exit_on_abort = false;      ///< --exit-on-abort
    bool continue_on_error = false;  ///< --continue-on-error (19): other SQL errors fail the
                                     ///< transaction instead of aborting the client
    bool pin_threads = true;         ///< one CPU per worker thread; --no-pin-threads clears it
    SocketIo socket_io = SocketIo::automatic; ///< --io-uring, --no-io-uring, $PGLAB_IO_URING
    bool percentiles = false;       ///< --percentiles: pglab's percentile block after the report
    bool log_last_interval = false; ///< --log-last-interval: write the last, partial aggregate
    bool log_transactions = false;  ///< -l
    std::string log_prefix = "pgbench_log";
    double sampling_rate = 0;       ///< --sampling-rate, 0 = log every transaction
    int aggregate_interval_s = 0;   ///< --aggregate-interval
    bool debug = false;             ///< -d (15, 16) / --debug
    uint64_t random_seed = 0;       ///< the seed of the base generator (already chosen)
    bool random_seed_given = false; ///< --random-seed or PGBENCH_RANDOM_SEED was given
    bool uses_builtin = false;      ///< some script is a builtin (scale read from the database)
    /// The lab runs benchmarks in-process: no banner on stdout, no "starting vacuum" on stderr,
    /// no progress lines (-P still makes latency measured). Errors are still logged.
    bool quiet = false;
    /// The fleet (src/fleet/): this process's part of a benchmark run by several processes.
    /// `hooks` (not owned) replaces the progress reporter and agrees on the start; client ids
    /// (:client_id, logs) start at `first_client_id`. nullptr and 0 in a single process.
    RunHooks* hooks = nullptr;
    int first_client_id = 0;

    /// Whether per-transaction latency is measured (pgbench: -R, -P or -L); otherwise the
    /// pgbench-compatible "latency average" is derived from duration and counts. pglab's
    /// histogram is kept in every case.
    bool measure_latency() const { return rate_tps > 0 || progress_s > 0 || latency_limit_us > 0; }
};

} // namespace pglab::bench
