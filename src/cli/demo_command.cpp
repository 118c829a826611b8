// `pglab demo`: the embedded default end to end. A throwaway PostgreSQL, `bench -i`, a short
// run with progress, the report, and the server removed again (also on Ctrl-C).
#include "cli/demo_command.hpp"

#include "cli/bench_command.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "util/log.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace pglab::cli {

namespace {

int run_bench(std::vector<std::string> args) {
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    return bench_command(static_cast<int>(args.size()), argv.data());
}

} // namespace

int demo_command(int argc, char** /*argv*/) {
    if (argc > 1) {
        log::error("pglab demo takes no arguments");
        return 1;
    }
    std::fputs("pglab demo: starting a throwaway PostgreSQL server...\n", stderr);
    lab::server::ClusterOptions options;
    options.settings.emplace_back("max_connections", "100");
    auto cluster = lab::server::ThrowawayCluster::create(options);
    if (!cluster) {
        log::print(cluster.error());
        return 1;
    }
    const std::vector<std::string> conn = {"-h", cluster->socket_dir().string(), "-p",
                                           std::to_string(cluster->port()), "-U",
                                           cluster->user()};
    std::fprintf(stderr, "pglab demo: server %s in %s\n",
                 cluster->installation().bin_dir.string().c_str(),
                 cluster->base_dir().string().c_str());

    std::fputs("\npglab demo: pglab bench -i -s 5 (initialise the pgbench tables)\n", stderr);
    std::vector<std::string> init = {"pglab bench", "-i", "-s", "5"};
    init.insert(init.end(), conn.begin(), conn.end());
    init.emplace_back("postgres");
    if (const int rc = run_bench(init); rc != 0) {
        return rc;
    }

    std::fputs("\npglab demo: pglab bench -c 4 -j 2 -T 10 -P 2 (TPC-B-like, 10 seconds)\n", stderr);
    std::vector<std::string> run = {"pglab bench", "-c", "4", "-j", "2", "-T", "10", "-P", "2"};
    run.insert(run.end(), conn.begin(), conn.end());
    run.emplace_back("postgres");
    const int rc = run_bench(run);
    std::fflush(stdout);
    std::fputs("\npglab demo: removing the server\n", stderr);
    return rc;
}

} // namespace pglab::cli
