// `pglab bench`: --help/--version, option parsing, then initialization or a benchmark run with
// its report; pgbench's exit statuses (0, 1, 2).
#include "cli/bench_command.hpp"

#include "bench/run.hpp"
#include "cli/bench_help.hpp"
#include "cli/bench_options.hpp"
#include "init/initialize.hpp"
#include "output/report.hpp"
#include "util/log.hpp"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::cli {

namespace {

/// Prints a failure; an empty message means the error was already printed (getopt).
int fail(const Error& error) {
    if (error.message.empty()) {
        if (!error.detail.empty()) {
            log::detail(error.detail);
        }
        if (!error.hint.empty()) {
            log::hint(error.hint);
        }
    } else {
        log::print(error);
    }
    return error.exit_code;
}

int run_benchmark(bench::RunConfig& config) {
    auto result = bench::run(config);
    if (!result) {
        return fail(result.error());
    }
    std::fflush(stdout);
    output::print_report(config, *result);
    std::fflush(stdout);
    if (result->aborted_clients > 0) {
        log::error("Run was aborted; the above results are incomplete.");
        return 2;
    }
    return 0;
}

} // namespace

int bench_command(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        args.emplace_back(argv[i]);
    }
    // Like pgbench, --help and --version count only as the first argument.
    if (!args.empty()) {
        const std::string_view first = args.front();
        if (first == "--help" || first == "-?") {
            std::fwrite(bench_help_text().data(), 1, bench_help_text().size(), stdout);
            return 0;
        }
        if (first == "--version" || first == "-V") {
            std::fputs(bench_version_text().c_str(), stdout);
            return 0;
        }
    }

    auto parsed = parse_bench_options(args, default_bench_parse_env());
    if (!parsed) {
        return fail(parsed.error());
    }
    BenchOptions& options = *parsed;
    log::set_debug(options.debug);
    switch (options.action) {
    case BenchAction::list_builtins:
    case BenchAction::show_script:
        std::fputs(options.text.c_str(), stderr);
        return 0;
    case BenchAction::initialize: {
        auto status = init::initialize(std::move(options.init));
        return status ? 0 : fail(status.error());
    }
    case BenchAction::benchmark:
        return run_benchmark(options.run);
    }
    return 1;
}

} // namespace pglab::cli
