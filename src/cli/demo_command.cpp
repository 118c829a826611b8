// `pglab demo`: start a throwaway server from the newest PostgreSQL, run `pglab bench -i` and a
// short benchmark against it in-process, then remove the server (also on Ctrl-C).
#include "cli/demo_command.hpp"

#include "cli/bench_command.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "util/log.hpp"
#include "util/subprocess.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::cli {

namespace {

constexpr std::string_view k_demo_help =
    R"(pglab demo: initialise and benchmark a throwaway PostgreSQL server.

Starts a server from the newest PostgreSQL installed under /usr/lib/postgresql in a temporary
directory, runs "pglab bench -i -s 5" and a 10-second "pglab bench -c 4 -j 2 -T 10 -P 2"
against it, and removes the server afterwards (also when interrupted).

Usage:
  pglab demo
)";

/// Prints one explanatory line before a step, flushed so it precedes the step's own output.
void say(const std::string& line) {
    std::printf("\n== %s\n", line.c_str());
    std::fflush(stdout);
}

/// Calls bench_command with `args` as its argv (argv[0] = "pglab bench").
int run_bench(const std::vector<std::string>& args) {
    std::vector<std::string> storage = args;
    std::vector<char*> argv;
    for (auto& a : storage) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    say("pglab bench " + util::quote_command({args.begin() + 1, args.end()}));
    return bench_command(static_cast<int>(storage.size()), argv.data());
}

} // namespace

int demo_command(int argc, char** argv) {
    if (argc > 1) {
        const std::string_view arg = argv[1];
        if (arg == "--help" || arg == "-?") {
            std::fputs(k_demo_help.data(), stdout);
            return 0;
        }
        log::error("demo takes no arguments, got \"{}\"", arg);
        log::hint("Try \"pglab demo --help\" for more information.");
        return 1;
    }

    say("starting a throwaway PostgreSQL server (removed at the end, also on Ctrl-C)");
    auto cluster = lab::server::ThrowawayCluster::create({});
    if (!cluster) {
        log::print(cluster.error());
        return 1;
    }
    std::printf("PostgreSQL %s from %s, socket %s, port %d\n",
                cluster->installation().version.c_str(), cluster->bin_dir().c_str(),
                cluster->socket_dir().c_str(), cluster->port());

    const std::vector<std::string> conn = {"-h", cluster->socket_dir().string(),
                                           "-p", std::to_string(cluster->port()),
                                           "-U", cluster->user()};
    auto command = [&conn](const std::vector<std::string>& options) {
        std::vector<std::string> args = {"pglab bench"};
        args.reserve(options.size() + conn.size() + 2);
        for (const auto& o : options) {
            args.push_back(o);
        }
        for (const auto& c : conn) {
            args.push_back(c);
        }
        args.emplace_back("postgres");
        return args;
    };

    say("creating the pgbench tables at scale 5 (500,000 accounts)");
    int rc = run_bench(command({"-i", "-s", "5"}));
    if (rc == 0) {
        say("running the default TPC-B-like script: 4 clients, 2 threads, 10 s, progress every "
            "2 s");
        rc = run_bench(command({"-c", "4", "-j", "2", "-T", "10", "-P", "2"}));
    }

    say("removing the throwaway server");
    if (const Status removed = cluster->remove(); !removed) {
        log::print(removed.error());
        return rc != 0 ? rc : 1;
    }
    return rc;
}

} // namespace pglab::cli
