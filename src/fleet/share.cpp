#include "fleet/share.hpp"

#include <fmt/format.h>

namespace pglab::fleet {

int fleet_threads(const bench::RunConfig& total, int processes) {
    return total.threads == 1 ? processes : total.threads;
}

Result<Share> share_of(const bench::RunConfig& total, int rank, int processes) {
    if (processes > total.clients) {
        return make_error(
            fmt::format("number of processes ({}) must not exceed number of clients ({})",
                        processes, total.clients));
    }
    const int threads = fleet_threads(total, processes);
    if (threads % processes != 0) {
        return make_error(
            fmt::format("number of threads ({}) must be a multiple of number of processes ({})",
                        threads, processes));
    }
    Share s;
    int remaining = total.clients;
    for (int r = 0; r <= rank; ++r) {
        s.first_client = total.clients - remaining;
        s.clients = (remaining + processes - r - 1) / (processes - r);
        remaining -= s.clients;
    }
    s.threads = std::min(threads / processes, s.clients);
    s.rate_tps = total.rate_tps / processes;
    return s;
}

uint64_t seed_of(uint64_t seed, int rank) {
    if (rank == 0) {
        return seed;
    }
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(rank);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

Result<FleetTotals> narrow_to_process(bench::RunConfig& config, int rank, int processes,
                                      const std::string& host) {
    PGLAB_TRY_ASSIGN(const Share share, share_of(config, rank, processes));
    FleetTotals t{config.clients,    fleet_threads(config, processes),
                  config.rate_tps,   config.random_seed,
                  config.log_prefix, config.quiet,
                  config.no_vacuum,  config.vacuum_accounts};
    config.clients = share.clients;
    config.threads = share.threads;
    config.first_client_id = share.first_client;
    config.rate_tps = share.rate_tps;
    config.random_seed = seed_of(t.random_seed, rank);
    // pgbench_log.PID[.THREAD] would collide on a shared directory: PIDs repeat across hosts.
    config.log_prefix = fmt::format("{}.{}.{}", t.log_prefix, host, rank);
    if (rank != 0) {
        config.quiet = true;
        config.no_vacuum = true;
        config.vacuum_accounts = false;
    }
    return t;
}

void widen_to_fleet(bench::RunConfig& config, const FleetTotals& t) {
    config.clients = t.clients;
    config.threads = t.threads;
    config.first_client_id = 0;
    config.rate_tps = t.rate_tps;
    config.random_seed = t.random_seed;
    config.log_prefix = t.log_prefix;
    config.quiet = t.quiet;
    config.no_vacuum = t.no_vacuum;
    config.vacuum_accounts = t.vacuum_accounts;
}

} // namespace pglab::fleet
