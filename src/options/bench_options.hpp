// Parsing `pglab bench` arguments into what to do: pgbench 15's getopt_long loop, scripts loaded
// in command-line order, then its validations in its order. No server; the outside world
// (environment, files, stdin, rlimit, stderr) goes through BenchParseEnv so tests can replace it.
#pragma once

#include "bench/run_config.hpp"
#include "init/init_options.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compat/pgbench_profile.hpp"

namespace pglab::options {

/// What the command line asks for.
enum class BenchAction : uint8_t {
    benchmark,     ///< run `run` (bench::run), print the report
    initialize,    ///< -i: run `init` (init::initialize)
    list_builtins, ///< -b list: print `text` on stderr, exit 0
    show_script,   ///< --show-script: print `text` on stderr, exit 0
};

struct BenchOptions {
    BenchAction action = BenchAction::benchmark;
    /// The pgbench release the command line is read as (--pgbench-version, PGLAB_PGBENCH_VERSION).
    const compat::PgbenchProfile* pgbench = &compat::default_pgbench_profile();
    bench::RunConfig run;    ///< filled for `benchmark`
    init::InitOptions init;  ///< filled for `initialize`
    std::string text;        ///< stderr output of `list_builtins` / `show_script`
    bool debug = false;      ///< --debug (or -d up to 16) was given
    std::string export_json; ///< --export-json FILE (pglab), empty when not given
    std::string export_csv;  ///< --export-csv FILE (pglab), empty when not given
};

/// The process environment as the parser sees it. Defaults use the real process (see
/// default_bench_parse_env()); tests override members.
struct BenchParseEnv {
    /// An environment variable, or nullopt when unset.
    std::function<std::optional<std::string>(const char* name)> getenv;
    /// Checks (and, when asked, raises) the open-files limit for N clients; see
    /// ensure_open_files().
    std::function<Status(int clients, bool raise_soft_limit)> ensure_open_files;
    /// Whole contents of a script file; error `could not open file "NAME": %m` (or read).
    std::function<Result<std::string>(const std::string& path)> read_file;
    /// Whole contents of standard input (`-f -`).
    std::function<Result<std::string>()> read_stdin;
    /// The OS user name (last fallback for the database name).
    std::function<Result<std::string>()> os_user;
    /// Prints a non-final diagnostic as it happens (info lines such as `setting random seed to
    /// N`, or an error that a final one follows). Level info or error.
    std::function<void(bool is_error, const Error& message)> report;
};

/// The real environment: getenv, files, stdin, getrlimit/setrlimit, getpwuid, log:: on stderr.
BenchParseEnv default_bench_parse_env();

/// Hint printed after usage errors, with pglab's command name.
/// pgbench's hint after an option error, naming the command as it was typed: "pglab bench", or
/// "pgbench" through a link of that name.
std::string bench_try_help();

/// The pgbench release to speak as: `--pgbench-version=N` or `--pgbench-version N` among `args`
/// (the last one wins), else $PGLAB_PGBENCH_VERSION, else the newest (18). Errors (exit 1):
/// `invalid value "X" for option --pgbench-version` or `invalid value "X" of environment
/// variable PGLAB_PGBENCH_VERSION`, with a detail listing the versions.
Result<const compat::PgbenchProfile*> select_pgbench_profile(const std::vector<std::string>& args,
                                                             const BenchParseEnv& env);

/// Parses `args` (the arguments after `bench`; --help/--version are handled by the caller) as
/// the selected pgbench release does (select_pgbench_profile), with glibc getopt_long (option
/// permutation, long-option abbreviations; its own complaints are printed on stderr with the
/// program's name), plus pglab's own long options (--export-json, --percentiles...).
/// Errors are exit-1 errors with pgbench's wording; an Error with an empty message means getopt
/// already complained (only the hint remains to print).
Result<BenchOptions> parse_bench_options(const std::vector<std::string>& args,
                                         const BenchParseEnv& env);

} // namespace pglab::options
