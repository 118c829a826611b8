// pgbench 15's getopt_long loop: each option is applied (and scripts parsed) in command-line
// order, so the first bad option is the one reported, exactly as pgbench reports it.
#include "options/bench_options.hpp"

#include "script/loader.hpp"
#include "script/variables.hpp"
#include "util/log.hpp"
#include "util/named_values.hpp"

#include <fmt/format.h>

#include <getopt.h>
#include <strings.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "options/bench_option_table.hpp"
#include "options/bench_parse_state.hpp"
#include "options/int_option.hpp"
#include "options/random_seed.hpp"

namespace pglab::options {

namespace {

using detail::BenchParseState;
using namespace detail::option_codes;
using detail::k_short_options_15;
using detail::k_short_options_17;
using detail::long_options_for;

constexpr const char* k_all_init_steps = "dtgGvpf";
constexpr const char* k_io_uring_env = "PGLAB_IO_URING";

constexpr std::string_view k_version_option = "--pgbench-version";

Error invalid_pgbench_version(std::string_view value, std::string_view where) {
    return Error(fmt::format("invalid value \"{}\" {}", value, where),
                 "pglab speaks as pgbench 15, 16, 17, 18 or 19.");
}

/// Sets an int option through option_parse_int semantics.
Status set_int(int& target, const char* arg, std::string_view name, int min, int max) {
    PGLAB_TRY_ASSIGN(target, parse_int_option(arg, name, min, max));
    return {};
}

/// checkInitSteps(): steps must be from "dtgGvpf" or blanks, and not empty.
Status check_init_steps(std::string_view steps) {
    if (steps.empty()) {
        return make_error("no initialization steps specified");
    }
    for (const char step : steps) {
        if (step == '\0' || (std::strchr(k_all_init_steps, step) == nullptr && step != ' ')) {
            return make_error(
                Error(fmt::format("unrecognized initialization step \"{}\"", step),
                      fmt::format("Allowed step characters are: \"{}\".", k_all_init_steps)));
        }
    }
    return {};
}

/// -f NAME[@W]: reads the file (or stdin for "-") and parses it as a script.
Status add_file_script(BenchParseState& state, const BenchParseEnv& env, const char* arg) {
    PGLAB_TRY_ASSIGN(auto spec, script::split_weight(arg));
    const auto& [path, weight] = spec;
    std::string source;
    if (path == "-") {
        PGLAB_TRY_ASSIGN(source, env.read_stdin());
    } else {
        PGLAB_TRY_ASSIGN(source, env.read_file(path));
    }
    PGLAB_TRY(state.out.run.scripts.add(path, path, source, weight));
    if (state.out.run.scripts.scripts().size() > 128) {
        return make_error("at most 128 SQL scripts are allowed");
    }
    return {};
}

/// -D NAME=VALUE: stored in order; a repeated name keeps its place and takes the new value.
Status add_define(BenchParseState& state, const char* arg) {
    const std::string_view text = arg;
    const auto eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size()) {
        return make_error(fmt::format("invalid variable definition: \"{}\"", text));
    }
    const std::string name(text.substr(0, eq));
    const std::string value(text.substr(eq + 1));
    auto& defines = state.out.run.defines;
    for (auto& define : defines) {
        if (define.name == name) {
            define.value = value;
            return {};
        }
    }
    if (!script::valid_variable_name(name)) {
        return make_error(fmt::format("option: invalid variable name: \"{}\"", name));
    }
    defines.push_back(bench::Define{name, value});
    return {};
}

/// --random-seed: an unparsable value is an error followed by a fatal one.
Status set_random_seed(BenchParseState& state, const BenchParseEnv& env, const char* arg) {
    auto seed = parse_random_seed(arg);
    if (!seed) {
        env.report(true, seed.error());
        return make_error("error while setting random seed from --random-seed option");
    }
    env.report(false, Error(fmt::format("setting random seed to {}", *seed)));
    state.out.run.random_seed = *seed;
    state.out.run.random_seed_given = true;
    return {};
}

Result<script::QueryMode> parse_query_mode(const char* arg) {
    if (const auto mode = util::value_named(script::k_query_modes, arg)) {
        return *mode;
    }
    return make_error(fmt::format("invalid query mode (-M): \"{}\"", arg));
}

// The apply_*_option functions below return std::optional<Status>: nullopt means "not my
// option", so success is spelt `return Status{};` (a bare `return {};` would be nullopt).

/// Options valid in both modes: connection, debug, -i itself, -n, -s; nullopt when `c` is none
/// of them.
std::optional<Status> apply_common_option(BenchParseState& state, int c, const char* arg) {
    auto& run = state.out.run;
    switch (c) {
    case 'd':
        if (state.out.pgbench->dbname_short_option) {
            state.dbname = arg;
        } else {
            state.out.debug = true;
        }
        return Status{};
    case debug:
        state.out.debug = true;
        return Status{};
    case 'h':
        run.conn.host = arg;
        return Status{};
    case 'p':
        run.conn.port = arg;
        return Status{};
    case 'U':
        run.conn.user = arg;
        return Status{};
    case 'n':
        state.no_vacuum = true;
        return Status{};
    case 's':
        state.scale_given = true;
        return set_int(state.scale, arg, "-s/--scale", 1, INT_MAX);
    case 'i':
        state.init_mode = true;
        return Status{};
    case pgbench_version:
        return Status{}; // chosen before parsing (select_pgbench_profile)
    default:
        return std::nullopt;
    }
}

/// The options only -i takes (apply_option records that one was given); nullopt when `c` is
/// none of them.
std::optional<Status> apply_init_option(BenchParseState& state, int c, const char* arg) {
    auto& init = state.out.init;
    switch (c) {
    case 'I':
        state.init_steps = arg;
        PGLAB_TRY(check_init_steps(arg));
        return Status{};
    case 'F':
        return set_int(init.fillfactor, arg, "-F/--fillfactor", 10, 100);
    case 'q':
        init.quiet = true;
        return Status{};
    case unlogged_tables:
        init.unlogged = true;
        return Status{};
    case tablespace:
        init.tablespace = arg;
        return Status{};
    case index_tablespace:
        init.index_tablespace = arg;
        return Status{};
    case foreign_keys:
        state.foreign_keys = true;
        return Status{};
    case partitions:
        return set_int(state.partitions, arg, "--partitions", 0, INT_MAX);
    case partition_method:
        if (strcasecmp(arg, "range") == 0) {
            init.partition_method = init::PartitionMethod::range;
        } else if (strcasecmp(arg, "hash") == 0) {
            init.partition_method = init::PartitionMethod::hash;
        } else {
            return make_error(fmt::format(
                "invalid partition method, expecting \"range\" or \"hash\", got: \"{}\"", arg));
        }
        return Status{};
    default:
        return std::nullopt;
    }
}

/// Script selection (-b, -f, -N, -S, --show-script); `done` is set when parsing ends
/// successfully (-b list, --show-script). nullopt when `c` is none of them. Every script but
/// those two is a benchmarking option (apply_option records it).
std::optional<Status> apply_script_option(BenchParseState& state, const BenchParseEnv& env, int c,
                                          const char* arg, bool& done) {
    switch (c) {
    case 'b': {
        if (std::strcmp(arg, "list") == 0) {
            state.out.action = BenchAction::list_builtins;
            state.out.text = script::builtin_list_text();
            done = true;
            return Status{};
        }
        PGLAB_TRY_ASSIGN(auto spec, script::split_weight(arg));
        PGLAB_TRY(detail::add_builtin_script(state, spec.first, spec.second));
        return Status{};
    }
    case 'f':
        PGLAB_TRY(add_file_script(state, env, arg));
        return Status{};
    case 'N':
        PGLAB_TRY(detail::add_builtin_script(state, "simple-update", 1));
        return Status{};
    case 'S':
        PGLAB_TRY(detail::add_builtin_script(state, "select-only", 1));
        return Status{};
    case show_script: {
        PGLAB_TRY_ASSIGN(const script::BuiltinScript* builtin, script::find_builtin(arg));
        state.out.action = BenchAction::show_script;
        state.out.text =
            fmt::format("-- {}: {}\n{}\n", builtin->name, builtin->desc, builtin->text);
        done = true;
        return Status{};
    }
    default:
        return std::nullopt;
    }
}

/// The options only a benchmark takes (apply_option records that one was given); nullopt when
/// `c` is none of them.
std::optional<Status> apply_bench_option(BenchParseState& state, const BenchParseEnv& env, int c,
                                         const char* arg) {
    auto& run = state.out.run;
    switch (c) {
    case 'c':
        PGLAB_TRY(
            set_int(run.clients, arg,
                    state.out.pgbench->client_option_singular ? "-c/--client" : "-c/--clients", 1,
                    INT_MAX));
        return env.ensure_open_files(run.clients, state.out.pgbench->raises_open_files);
    case 'C':
        run.connect_per_tx = true;
        return Status{};
    case 'D':
        return add_define(state, arg);
    case 'j':
        return set_int(run.threads, arg, "-j/--jobs", 1, INT_MAX);
    case 'l':
        state.use_log = true;
        return Status{};
    case 'L': {
        const double limit_ms = c_atof(arg);
        if (limit_ms <= 0.0) {
            return make_error(fmt::format("invalid latency limit: \"{}\"", arg));
        }
        state.latency_limit_us = static_cast<int64_t>(limit_ms * 1000);
        return Status{};
    }
    case 'M': {
        PGLAB_TRY_ASSIGN(run.query_mode, parse_query_mode(arg));
        return Status{};
    }
    case 'P':
        return set_int(state.progress, arg, "-P/--progress", 1, INT_MAX);
    case 'r':
        run.report_per_command = true;
        return Status{};
    case 'R': {
        const double rate = c_atof(arg);
        if (rate <= 0.0) {
            return make_error(fmt::format("invalid rate limit: \"{}\"", arg));
        }
        run.rate_tps = rate;
        return Status{};
    }
    case 't':
        return set_int(state.transactions, arg, "-t/--transactions", 1, INT_MAX);
    case 'T':
        return set_int(state.duration, arg, "-T/--time", 1, INT_MAX);
    case 'v':
        run.vacuum_accounts = true;
        return Status{};
    case sampling_rate:
        state.sample_rate = c_atof(arg);
        if (state.sample_rate <= 0.0 || state.sample_rate > 1.0) {
            return make_error(fmt::format("invalid sampling rate: \"{}\"", arg));
        }
        return Status{};
    case aggregate_interval:
        return set_int(state.agg_interval, arg, "--aggregate-interval", 1, INT_MAX);
    case progress_timestamp:
        run.progress_timestamp = true;
        return Status{};
    case log_prefix:
        state.log_prefix = arg;
        return Status{};
    case random_seed:
        return set_random_seed(state, env, arg);
    case failures_detailed:
        run.failures_detailed = true;
        return Status{};
    case max_tries: {
        const int32_t tries = c_atoi(arg);
        if (tries < 0) {
            return make_error(fmt::format("invalid number of maximum tries: \"{}\"", arg));
        }
        state.max_tries = static_cast<uint32_t>(tries);
        return Status{};
    }
    case verbose_errors:
        run.verbose_errors = true;
        return Status{};
    case exit_on_abort:
        run.exit_on_abort = true;
        return Status{};
    case continue_on_error:
        run.continue_on_error = true;
        return Status{};
    case export_json:
        state.out.export_json = arg;
        return Status{};
    case export_csv:
        state.out.export_csv = arg;
        return Status{};
    case no_pin_threads:
        run.pin_threads = false;
        return Status{};
    case no_io_uring:
        run.socket_io = bench::SocketIo::epoll;
        return Status{};
    case force_io_uring:
        run.socket_io = bench::SocketIo::ring;
        return Status{};
    case percentiles:
        run.percentiles = true;
        return Status{};
    case log_last_interval:
        run.log_last_interval = true;
        return Status{};
    default:
        return std::nullopt;
    }
}

/// Applies one option returned by getopt_long. `done` is set when the option ends parsing
/// successfully (-b list, --show-script).
Status apply_option(BenchParseState& state, const BenchParseEnv& env, int c, const char* arg,
                    bool& done) {
    if (auto status = apply_common_option(state, c, arg)) {
        return *status;
    }
    // What a failed option sets does not matter: the failure ends the parse.
    if (auto status = apply_init_option(state, c, arg)) {
        state.initialization_option_set = true;
        return *status;
    }
    if (auto status = apply_script_option(state, env, c, arg, done)) {
        state.benchmarking_option_set = state.benchmarking_option_set || !done;
        return *status;
    }
    if (auto status = apply_bench_option(state, env, c, arg)) {
        state.benchmarking_option_set = true;
        return *status;
    }
    // getopt_long already complained on stderr.
    return make_error(Error().with_hint(bench_try_help()));
}

/// Applies the caller's defaults (parse_bench_options) as their options would be applied.
Status apply_defaults(BenchParseState& state, const BenchParseEnv& env, const char* short_options,
                      const std::vector<OptionDefault>& defaults) {
    for (const OptionDefault& d : defaults) {
        const char* spec = d.letter == '\0' ? nullptr : std::strchr(short_options, d.letter);
        if (spec == nullptr || spec[1] != ':') {
            return make_error(
                fmt::format("-{} takes no value and cannot have a default", d.letter));
        }
        bool done = false;
        PGLAB_TRY(apply_option(state, env, d.letter, d.value.c_str(), done));
    }
    return {};
}

/// Undoes the defaults that the command line replaced and records those that took effect.
/// -t and -T replace each other's default; -D defaults stay (a define of the same name on the
/// command line, applied later, already won).
void settle_defaults(BenchParseState& state, const std::vector<OptionDefault>& defaults) {
    const OptionLetters& given = state.out.given;
    for (const OptionDefault& d : defaults) {
        if (d.letter == 'D' || !given.has(d.letter)) {
            // -t and -T replace each other's default: the other's count or duration is undone.
            const char other = d.letter == 't' ? 'T' : d.letter == 'T' ? 't' : '\0';
            if (other == '\0' || !given.has(other)) {
                state.out.defaults_applied.push_back(d);
            } else {
                (d.letter == 't' ? state.transactions : state.duration) = 0;
            }
        }
    }
}

/// The random seed from PGBENCH_RANDOM_SEED (announced), else the default one.
Status seed_from_environment(bench::RunConfig& run, const BenchParseEnv& env) {
    if (auto env_seed = env.getenv("PGBENCH_RANDOM_SEED")) {
        auto seed = parse_random_seed(*env_seed);
        if (!seed) {
            env.report(true, seed.error());
            return make_error("error while setting random seed from PGBENCH_RANDOM_SEED "
                              "environment variable");
        }
        env.report(false, Error(fmt::format("setting random seed to {}", *seed)));
        run.random_seed = *seed;
        run.random_seed_given = true;
    } else {
        run.random_seed = default_random_seed();
    }
    return {};
}

/// The socket I/O from PGLAB_IO_URING ("auto", "always" or "never"), which --io-uring and
/// --no-io-uring override: the way to choose it where pglab runs as pgbench through a link.
Status socket_io_from_environment(bench::RunConfig& run, const BenchParseEnv& env) {
    const auto value = env.getenv(k_io_uring_env);
    if (!value || value->empty()) {
        return {};
    }
    const auto mode = util::value_named(bench::k_socket_io_names, *value);
    if (!mode) {
        return make_error(fmt::format("invalid value \"{}\" of environment variable {}: auto, "
                                      "always or never",
                                      *value, k_io_uring_env));
    }
    run.socket_io = *mode;
    return {};
}

} // namespace

std::string bench_try_help() {
    const std::string command = log::program_name() == "pgbench" ? "pgbench" : "pglab bench";
    return fmt::format("Try \"{} --help\" for more information.", command);
}

Result<const compat::PgbenchProfile*> select_pgbench_profile(const std::vector<std::string>& args,
                                                             const BenchParseEnv& env) {
    std::optional<std::string> chosen;
    bool from_option = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (arg == "--") {
            break; // getopt stops there too
        }
        if (arg.starts_with(k_version_option) && arg.size() > k_version_option.size()
            && arg[k_version_option.size()] == '=') {
            chosen = std::string(arg.substr(k_version_option.size() + 1));
            from_option = true;
        } else if (arg == k_version_option && i + 1 < args.size()) {
            chosen = args[++i];
            from_option = true;
        }
    }
    if (!chosen) {
        chosen = env.getenv(std::string(compat::k_pgbench_version_env).c_str());
        if (!chosen || chosen->empty()) {
            return &compat::default_pgbench_profile();
        }
    }
    const auto major = compat::parse_pgbench_major(*chosen);
    if (!major) {
        return make_error(invalid_pgbench_version(
            *chosen, from_option ? std::string("for option --pgbench-version")
                                 : fmt::format("of environment variable {}",
                                               compat::k_pgbench_version_env)));
    }
    return compat::find_pgbench_profile(*major);
}

Result<BenchOptions> parse_bench_options(const std::vector<std::string>& args,
                                         const BenchParseEnv& env,
                                         const std::vector<OptionDefault>& defaults) {
    BenchParseState state;
    state.out.run.transactions = 0;
    PGLAB_TRY_ASSIGN(state.out.pgbench, select_pgbench_profile(args, env));
    const compat::PgbenchProfile& profile = *state.out.pgbench;
    state.out.run.pgbench = &profile;
    state.out.init.pgbench = &profile;
    state.out.run.scripts.set_dialect(script::Dialect{.syncpipeline = profile.syncpipeline});

    // Set the seed before parsing, as pgbench does, because parsing may use it.
    PGLAB_TRY(seed_from_environment(state.out.run, env));
    PGLAB_TRY(socket_io_from_environment(state.out.run, env));

    // getopt_long permutes the pointers (not the strings); the program's name prefixes its
    // complaints, as argv[0] does pgbench's.
    std::vector<std::string> storage;
    storage.reserve(args.size() + 1);
    storage.emplace_back(log::program_path());
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    argv.reserve(storage.size() + 1);
    for (auto& arg : storage) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    const int argc = static_cast<int>(storage.size());

    optind = 0; // glibc: full reinitialisation, so the parser can run more than once
    opterr = 1;
    int c = 0;
    int option_index = 0;
    const std::vector<option> long_options = long_options_for(profile, args);
    const char* short_options =
        profile.dbname_short_option ? k_short_options_17 : k_short_options_15;
    PGLAB_TRY(apply_defaults(state, env, short_options, defaults));
    while ((c = getopt_long(argc, argv.data(), short_options, long_options.data(), &option_index))
           != -1) {
        state.out.given.add(c);
        bool done = false;
        PGLAB_TRY(apply_option(state, env, c, optarg, done));
        if (done) {
            return std::move(state.out);
        }
    }
    for (int i = optind; i < argc; ++i) {
        state.positional.emplace_back(argv[static_cast<size_t>(i)]);
    }
    settle_defaults(state, defaults);
    PGLAB_TRY(detail::finish_bench_options(state, env));
    return std::move(state.out);
}

} // namespace pglab::options
