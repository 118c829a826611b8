// Parsing `pglab bench` arguments into what to do: pgbench 15's getopt_long loop, scripts loaded
// in command-line order, then its validations in its order. No server; the outside world
// (environment, files, stdin, rlimit, stderr) goes through BenchParseEnv so tests can replace it.
#pragma once

#include "bench/run_config.hpp"
#include "init/init_options.hpp"
#include "util/result.hpp"

#include <bitset>
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

/// A value for an option that a command line may leave out, by the option's letter ('c' for
/// -c/--client, 'D' for -D/--define with "NAME=VALUE"): what a caller that runs pgbench on a
/// user's behalf (the lab, from its matrix) supplies. See parse_bench_options.
struct OptionDefault {
    char letter = '\0';
    std::string value;

    bool operator==(const OptionDefault&) const = default;
};

/// The options that a command line set, by letter; a long form (--client, or an abbreviation
/// getopt accepts such as --cl) counts as its letter.
class OptionLetters {
public:
    void add(int code) {
        if (code > 0 && code < 128) {
            m_letters.set(static_cast<std::size_t>(code));
        }
    }

    bool has(char letter) const {
        return letter > 0 && m_letters.test(static_cast<std::size_t>(letter));
    }

private:
    std::bitset<128> m_letters;
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
    OptionLetters given;     ///< the options the command line set itself
    /// The caller's defaults that took effect (those the command line did not replace), in
    /// the caller's order.
    std::vector<OptionDefault> defaults_applied;
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
///
/// `defaults` are applied first, each as its option would be (the same checks and messages:
/// `invalid value "x" for option -c/--clients`), so the command line's own options win: an option
/// the command line sets replaces its default, -t and -T replace each other's (pgbench takes only
/// one), and a -D default adds to the command line's defines, which win for the same name.
/// Only letters that take a value (c j T t R s D...) may be defaults.
Result<BenchOptions> parse_bench_options(const std::vector<std::string>& args,
                                         const BenchParseEnv& env,
                                         const std::vector<OptionDefault>& defaults = {});

} // namespace pglab::options
