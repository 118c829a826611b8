// `pglab bench`: --help/--version, option parsing, then initialization or a benchmark run with
// its report and exports; pgbench's exit statuses (0, 1, 2) and its death by SIGINT/SIGTERM.
#include "cli/bench_command.hpp"

#include "bench/run.hpp"
#include "cli/bench_help.hpp"
#include "init/initialize.hpp"
#include "output/csv_export.hpp"
#include "output/json_export.hpp"
#include "output/report.hpp"
#include "util/log.hpp"
#include "util/output_file.hpp"
#include "util/stop_signal.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fleet/fleet.hpp"
#include "options/bench_options.hpp"

namespace pglab::cli {

using options::BenchAction;
using options::BenchOptions;

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

/// Looks at an export's path before the run, so that an unwritable path is an error before any
/// connection is made (pgbench checks its log files only after connecting). Nothing is created
/// or truncated yet: a FIFO's reader gets the whole export at the end, and a file is kept as it
/// was when the run fails.
Status check_export_path(const std::string& path) {
    if (path.empty()) {
        return {};
    }
    PGLAB_TRY(util::inspect_output(path));
    return {};
}

/// Writes the requested exports; false (after printing the error) when one failed.
bool write_exports(const BenchOptions& options, const bench::RunResult& result) {
    bool ok = true;
    if (!options.export_json.empty()) {
        if (auto st = output::write_json(options.export_json, options.run, result); !st) {
            log::print(st.error());
            ok = false;
        }
    }
    if (!options.export_csv.empty()) {
        if (auto st = output::write_csv(options.export_csv, options.run, result); !st) {
            log::print(st.error());
            ok = false;
        }
    }
    return ok;
}

/// Ends the process by `sig` with its default action, as pgbench ends on SIGINT or SIGTERM: the
/// caller (a shell, a harness) sees the signal, not an exit status. A throwaway cluster (pglab
/// demo's) is removed first.
[[noreturn]] void die_by_signal(int sig) {
    std::fflush(nullptr);
    util::end_process_by_signal(sig);
}

/// The report and exports of a finished run. Exit status: 0; 1 when an export could not be
/// written; 2 when clients aborted. A run stopped by SIGINT or SIGTERM ends by that signal, as
/// pgbench does; before that, pglab writes what it measured where no parser of pgbench's stdout
/// looks: the report on stderr, and the exports (marked interrupted).
int report_run(const BenchOptions& options, const bench::RunResult& result) {
    const bench::RunConfig& config = options.run;
    std::fflush(stdout);
    if (result.interrupted) {
        output::print_report(config, result, stderr);
        write_exports(options, result);
        log::warning("run interrupted by signal; the results cover only the transactions "
                     "completed in the first {:.3f} s",
                     0.000001 * static_cast<double>(result.bench_duration_us));
        die_by_signal(result.stop_signal);
    }
    output::print_report(config, result);
    std::fflush(stdout);
    const bool exported = write_exports(options, result);
    int status = exported ? 0 : 1;
    if (result.aborted_clients > 0) {
        log::error("Run was aborted; the above results are incomplete.");
        status = 2;
    }
    return status;
}

/// The run, its report and exports (report_run); 1 for setup failures. Under mpirun with
/// several processes, the fleet runs it and rank 0 reports for all.
int run_benchmark(BenchOptions& options) {
    bench::RunConfig& config = options.run;
    const auto launch = fleet::detect_launcher();
    const bool fleet = launch && launch->size != 1;
    if (!fleet || launch->rank == 0) {
        for (const std::string* path : {&options.export_json, &options.export_csv}) {
            if (auto st = check_export_path(*path); !st) {
                return fail(st.error());
            }
        }
    }
    if (fleet) {
        return fleet::run_fleet(
            config, *launch,
            [&options](bench::RunConfig&, bench::RunResult& r) { return report_run(options, r); });
    }
    auto result = bench::run(config);
    if (!result) {
        return fail(result.error());
    }
    return report_run(options, *result);
}

} // namespace

int bench_command(int argc, char** argv) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) {
        args.emplace_back(argv[i]);
    }
    const options::BenchParseEnv env = options::default_bench_parse_env();
    auto profile = options::select_pgbench_profile(args, env);
    if (!profile) {
        return fail(profile.error());
    }
    // Like pgbench, --help and --version count only as the first argument.
    if (!args.empty()) {
        const std::string_view first = args.front();
        if (first == "--help" || first == "-?") {
            const bool as_pgbench = log::program_name() == "pgbench";
            const std::string text =
                bench_help_text(**profile, as_pgbench ? "pgbench" : "pglab bench", as_pgbench);
            std::fwrite(text.data(), 1, text.size(), stdout);
            return 0;
        }
        if (first == "--version" || first == "-V") {
            std::fputs(bench_version_text(**profile).c_str(), stdout);
            return 0;
        }
    }

    auto parsed = options::parse_bench_options(args, env);
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
        // Under mpirun, one process initialises; the others have nothing to do.
        if (const auto launch = fleet::detect_launcher(); launch && launch->rank != 0) {
            return 0;
        }
        auto status = init::initialize(std::move(options.init));
        return status ? 0 : fail(status.error());
    }
    case BenchAction::benchmark:
        return run_benchmark(options);
    }
    return 1;
}

} // namespace pglab::cli
