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

} // namespace

int run(int argc, char** argv) {
    log::set_program_name("pglab");
    if (argc < 2) {
        std::fputs(k_usage.data(), stderr);
        return 1;
    }
    const std::string_view sub = argv[1];
    if (sub == "bench") {
        return bench_command(argc - 1, argv + 1);
    }
    if (sub == "run") {
        return run_command(argc - 1, argv + 1);
    }
    if (sub == "demo") {
        return demo_command(argc - 1, argv + 1);
    }
    if (sub == "server") {
        return server_command(argc - 1, argv + 1);
    }
    if (sub == "report") {
        return report_command(argc - 1, argv + 1);
    }
    if (sub == "compare") {
        return compare_command(argc - 1, argv + 1);
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
