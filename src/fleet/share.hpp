// How a fleet divides one benchmark among its processes, as pgbench divides clients among its
// threads: the first processes get the rounding up; -j (threads) and -R (rate) evenly.
#pragma once

#include "bench/run_config.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <string>

namespace pglab::fleet {

/// One process's part of the benchmark.
struct Share {
    int clients = 0;
    int threads = 0;
    int first_client = 0; ///< global id of its first client (client_id, logs)
    double rate_tps = 0;  ///< its part of -R (0 when unthrottled)
};

/// The threads of the whole fleet: -j after pgbench's clamping to the clients; the default 1
/// means one thread per process.
int fleet_threads(const bench::RunConfig& total, int processes);

/// Process `rank`'s share of `total` (clients, threads, rate as given on the command line) run
/// by `processes` processes. Errors (exit 1), in pgbench's style:
/// `number of processes (N) must not exceed number of clients (C)`;
/// `number of threads (J) must be a multiple of number of processes (N)`.
Result<Share> share_of(const bench::RunConfig& total, int rank, int processes);

/// The seed of process `rank`'s base generator: `seed` itself for rank 0, a reproducible
/// mixture of both (splitmix64) for the others, so that every process has its own streams.
uint64_t seed_of(uint64_t seed, int rank);

/// What narrow_to_process() changed, to put back for the fleet's report.
struct FleetTotals {
    int clients = 0;
    int threads = 0; ///< fleet_threads()
    double rate_tps = 0;
    uint64_t random_seed = 0;
    std::string log_prefix;
    bool quiet = false;
    bool no_vacuum = false;
    bool vacuum_accounts = false;
};

/// Turns the whole benchmark's `config` into process `rank`'s: its share, its seed, log file
/// names that carry the host and the rank (`PREFIX.HOST.RANK.PID[.THREAD]`), and only rank 0
/// prints the banner and vacuums. Returns what it changed; errors as share_of().
Result<FleetTotals> narrow_to_process(bench::RunConfig& config, int rank, int processes,
                                      const std::string& host);

/// Puts the whole fleet's figures back into `config` (what the report prints: clients, threads).
void widen_to_fleet(bench::RunConfig& config, const FleetTotals& totals);

} // namespace pglab::fleet
