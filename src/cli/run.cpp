// Subcommand dispatch. Only cli/ chooses exit codes and prints usage.
#include "cli/run.hpp"

#include "cli/bench_command.hpp"
#include "cli/demo_command.hpp"
#include "cli/report_command.hpp"
#include "cli/run_command.hpp"
#include "cli/server_command.hpp"
#include "util/log.hpp"

#include <cstdio>
#include <string_view>
#include <utility>

namespace pglab::cli {

namespace {

constexpr std::string_view k_usage = R"(pglab is a PostgreSQL performance lab.

Usage:
  pglab bench [PGBENCH OPTION]... [DBNAME]   a drop-in pgbench (see pglab bench --help)
  pglab run EXPERIMENT.toml                   run an experiment (see pglab run --help)
  pglab demo                                  initialise and benchmark a throwaway server
  pglab server list|fetch VERSION             PostgreSQL installations (see pglab server --help)
  pglab report DIR                            tables, charts and warnings of a results directory
  pglab compare DIR --by NAME=A,B             is a difference real? (see pglab compare --help)
  pglab --version
  pglab --help
)";

/// Each subcommand and the function that runs it (with argv[0] its name).
constexpr std::pair<std::string_view, int (*)(int, char**)> k_subcommands[] = {
    {"bench", bench_command},   {"run", run_command},       {"demo", demo_command},
    {"server", server_command}, {"report", report_command}, {"compare", compare_command},
};

} // namespace

int run(int argc, char** argv) {
    // Through a link named pgbench, pglab is pgbench: no subcommand, and its messages start
    // with "pgbench: " (pgbench prefixes them with the basename of argv[0]).
    const std::string_view invoked = argc > 0 ? std::string_view(argv[0]) : std::string_view();
    if (invoked.substr(invoked.rfind('/') + 1) == "pgbench") {
        log::set_program_name("pgbench");
        log::set_program_path(invoked);
        return bench_command(argc, argv);
    }
    log::set_program_name("pglab");
    if (argc < 2) {
        std::fputs(k_usage.data(), stderr);
        return 1;
    }
    const std::string_view sub = argv[1];
    for (const auto& [name, command] : k_subcommands) {
        if (sub == name) {
            return command(argc - 1, argv + 1);
        }
    }
    if (sub == "--help" || sub == "-?" || sub == "help") {
        std::fputs(k_usage.data(), stdout);
        return 0;
    }
    if (sub == "--version" || sub == "-V") {
        std::printf("pglab %s\n", PGLAB_VERSION);
        return 0;
    }
    log::error("unknown command \"{}\"", sub);
    log::hint("Try \"pglab --help\" for more information.");
    return 1;
}

} // namespace pglab::cli
