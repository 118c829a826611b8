// pgbench's option-error cases (002_pgbench_no_server.pl) run against both
// the reference pgbench (15) and `pglab bench`: same exit status, empty stdout, TAP regexes
// matching both, and the same stderr text after the program name. No server: every case fails
// before connecting.
#include "support/run_command.hpp"
#include "util/subprocess.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace pglab {
namespace {

/// A case: arguments (split on blanks, as the TAP harness does; `<empty>` stands for an empty
/// argument) and stderr regexes.
struct OptionCase {
    std::string name;
    std::string args;
    std::vector<std::string> stderr_regexes;
};

std::vector<std::string> split_words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    std::string word;
    while (in >> word) {
        words.push_back(word == "<empty>" ? std::string() : word);
    }
    return words;
}

/// Runs `program prefix... args...` without a server and with no seed from the environment.
util::ProcessResult run(const std::vector<std::string>& command, const std::string& args,
                        std::optional<std::string> stdin_text = std::nullopt) {
    util::SpawnOptions options;
    options.argv = command;
    for (auto& word : split_words(args)) {
        options.argv.push_back(word);
    }
    options.unset_env = {"PGBENCH_RANDOM_SEED", "PGHOST", "PGPORT", "PGDATABASE", "PGUSER"};
    options.stdin_text = std::move(stdin_text);
    options.timeout = std::chrono::milliseconds(30000);
    auto result = util::run_process(options);
    EXPECT_TRUE(result) << (result ? "" : result.error().message);
    return result ? *result : util::ProcessResult{};
}

util::ProcessResult run_pgbench(const std::string& args) {
    return run({support::pgbench_binary()}, args);
}

util::ProcessResult run_pglab(const std::string& args) {
    return run({PGLAB_BINARY, "bench"}, args);
}

/// stderr with each line's program prefix ("/usr/lib/.../pgbench: ", "pglab: ") removed and
/// pgbench's help hint spelt as pglab's.
std::string normalize_stderr(const std::string& err) {
    static const std::regex k_prefix(R"(^\S*(pgbench|pglab): )", std::regex::multiline);
    std::string text = std::regex_replace(err, k_prefix, "");
    static const std::regex k_hint(R"(Try "pgbench --help")");
    return std::regex_replace(text, k_hint, R"(Try "pglab bench --help")");
}

bool matches(const std::string& text, const std::string& pattern) {
    return std::regex_search(text, std::regex(pattern));
}

/// Both programs fail alike: exit 1, nothing on stdout, TAP regexes, same normalized stderr.
/// `-h /nonexistent` comes first so that an attempt to connect would show.
void expect_same_failure(const std::string& case_args, const std::vector<std::string>& regexes) {
    const std::string args = "-h /nonexistent " + case_args;
    SCOPED_TRACE("args: " + args);
    const auto pg = run_pgbench(args);
    const auto lab = run_pglab(args);
    EXPECT_EQ(pg.status.code, 1) << pg.err;
    EXPECT_EQ(lab.status.code, 1) << lab.err;
    EXPECT_EQ(pg.out, "");
    EXPECT_EQ(lab.out, "");
    for (const auto& re : regexes) {
        EXPECT_TRUE(matches(pg.err, re)) << "pgbench stderr does not match /" << re << "/:\n"
                                         << pg.err;
        EXPECT_TRUE(matches(lab.err, re)) << "pglab stderr does not match /" << re << "/:\n"
                                          << lab.err;
    }
    EXPECT_EQ(normalize_stderr(lab.err), normalize_stderr(pg.err));
    EXPECT_EQ(lab.err.find("connection"), std::string::npos) << "tried to connect: " << lab.err;
}

std::string repeat(const std::string& word, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) {
        out += word + " ";
    }
    return out;
}

/// PGBENCH.md §8.1, the option rows (script-parse rows are tested with the script suite), then
/// cases of §1 the TAP file does not have.
std::vector<OptionCase> option_cases() {
    return {
        {"bad_option", "-h home -p 5432 -U calvin -d --bad-option", {"--help.*more information"}},
        {"no_file", "-f no-such-file", {R"(could not open file "no-such-file":)"}},
        {"no_builtin", "-b no-such-builtin", {R"(no builtin script .* "no-such-builtin")"}},
        {"invalid_weight", "--builtin=select-only@one", {"invalid weight specification: @one"}},
        {"invalid_weight_range", "-b select-only@-1", {"weight spec.* out of range .*: -1"}},
        {"too_many_scripts", repeat("-S", 129), {"at most 128 SQL scripts"}},
        {"bad_clients", "-c three", {R"(invalid value "three" for option -c/--clients)"}},
        {"bad_threads", "-j eleven", {R"(invalid value "eleven" for option -j/--jobs)"}},
        {"bad_scale", "-i -s two", {R"(invalid value "two" for option -s/--scale)"}},
        {"bad_transactions", "-t zil", {R"(invalid value "zil" for option -t/--transactions)"}},
        {"bad_duration", "-T ten", {R"(invalid value "ten" for option -T/--time)"}},
        {"t_xor_T",
         "-N -l --aggregate-interval=5 --log-prefix=notused -t 1000 -T 1",
         {"specify either "}},
        {"T_xor_t",
         "-P 1 --progress-timestamp -l --sampling-rate=0.001 -T 10 -t 1000",
         {"specify either "}},
        {"bad_variable", "--define foobla", {"invalid variable definition"}},
        {"bad_fillfactor", "-F 1", {"-F/--fillfactor must be in range"}},
        {"bad_query_mode", "-M no-such-mode", {"invalid query mode"}},
        {"bad_progress", "--progress=0", {"-P/--progress must be in range"}},
        {"bad_rate", "--rate=0.0", {"invalid rate limit"}},
        {"bad_latency", "--latency-limit=0.0", {"invalid latency limit"}},
        {"bad_sampling_rate", "--sampling-rate=0", {"invalid sampling rate"}},
        {"bad_aggregate_interval",
         "--aggregate-interval=-3",
         {"--aggregate-interval must be in range"}},
        {"weight_zero", "-b se@0 -b si@0 -b tpcb@0", {"weight must not be zero"}},
        {"init_vs_run", "-i -S", {"cannot be used in initialization"}},
        {"run_vs_init", "-S -F 90", {"cannot be used in benchmarking"}},
        {"ambiguous_builtin", "-b s", {"ambiguous"}},
        {"progress_timestamp_needs_progress", "--progress-timestamp", {"allowed only under"}},
        {"init_steps_without_init", "-I dtg", {"cannot be used in benchmarking mode"}},
        {"bad_init_step",
         "-i -I dta",
         {"unrecognized initialization step", "Allowed step characters are"}},
        {"bad_random_seed",
         "--random-seed=one",
         {R"(unrecognized random seed option "one")",
          R"(Expecting an unsigned integer, "time" or "rand")",
          "error while setting random seed from --random-seed option"}},
        {"bad_partition_method",
         "-i --partition-method=BAD",
         {R"("range")", R"("hash")", R"("BAD")"}},
        {"bad_partition_number", "-i --partitions -1", {"--partitions must be in range"}},
        {"partition_method_without_partitions",
         "-i --partition-method=hash",
         {"partition-method requires greater than zero --partitions"}},
        {"bad_max_tries", "--max-tries -10", {R"(invalid number of maximum tries: "-10")"}},
        {"infinite_tries",
         "--max-tries 0",
         {"an unlimited number of transaction tries can only be used with --latency-limit or a "
          "duration"}},
        {"sampling_needs_log", "--sampling-rate=0.01", {"log sampling .* only when"}},
        {"sampling_xor_aggregate",
         "-l --sampling-rate=0.1 --aggregate-interval=3",
         {"sampling .* aggregation .* cannot be used at the same time"}},
        {"aggregate_needs_log", "--aggregate-interval=3", {"aggregation .* only when"}},
        {"log_prefix_needs_log", "--log-prefix=x", {"prefix .* only when"}},
        {"duration_and_aggregation", "-l -T 1 --aggregate-interval=3", {"aggr.* not be higher"}},
        {"duration_multiple_of_aggregation", "-l -T 5 --aggregate-interval=3", {"multiple"}},
        // Beyond the TAP file: getopt complaints, extra arguments, first-error-wins order.
        {"invalid_short_option", "-x", {"invalid option -- 'x'"}},
        {"missing_argument", "-c", {"option requires an argument -- 'c'"}},
        {"ambiguous_long_option", "--s=3", {"is ambiguous"}},
        {"long_option_with_argument", "--connect=3", {"doesn't allow an argument"}},
        {"help_not_first", "-c 1 --help", {"unrecognized option '--help'"}},
        {"version_not_first", "-c 1 -V", {"invalid option -- 'V'"}},
        {"too_many_arguments",
         "db1 db2",
         {R"(too many command-line arguments \(first is "db2"\))"}},
        {"bad_variable_name", "-D 1a=2", {R"(invalid variable name: "1a")"}},
        {"empty_variable_value", "-D a=", {"invalid variable definition"}},
        {"no_init_steps", "-i -I <empty>", {"no initialization steps specified"}},
        {"empty_clients", "-c <empty>", {"must be in range"}},
        {"clients_trailing_garbage", "-c 5x", {}},
        {"clients_out_of_int", "-c 2147483648", {"must be in range"}},
        {"abbreviated_long_option", "--cl=3 -t 0", {"-t/--transactions must be in range"}},
        {"first_error_wins", "-c 0 -j x", {"-c/--clients must be in range"}},
        {"getopt_before_checks", "-t 1 -T 1 -x", {"invalid option"}},
        {"seed_then_error", "--random-seed=5 -c 0", {"setting random seed to 5"}},
        {"mode_before_t_T", "-S -F 90 -t 1 -T 1", {"cannot be used in benchmarking"}},
        {"args_before_mode", "-i -S x y", {"too many command-line arguments"}},
        {"max_tries_garbage", "--max-tries=abc", {"unlimited number of transaction tries"}},
        {"init_partition_method_case",
         "-i --partitions=0 --partition-method=HaSh",
         {"requires greater than zero"}},
    };
}

class OptionErrorTest : public ::testing::TestWithParam<OptionCase> {};

TEST_P(OptionErrorTest, FailsLikePgbench) {
    expect_same_failure(GetParam().args, GetParam().stderr_regexes);
}

INSTANTIATE_TEST_SUITE_P(Pgbench002, OptionErrorTest, ::testing::ValuesIn(option_cases()),
                         [](const ::testing::TestParamInfo<OptionCase>& param_info) {
                             return param_info.param.name;
                         });

TEST(OptionTest, BadSeedInEnvironmentFailsLikePgbench) {
    util::SpawnOptions options;
    options.env = {{"PGBENCH_RANDOM_SEED", "x"}};
    options.argv = {support::pgbench_binary(), "-h", "/nonexistent"};
    auto pg = util::run_process(options);
    options.argv = {PGLAB_BINARY, "bench", "-h", "/nonexistent"};
    auto lab = util::run_process(options);
    ASSERT_TRUE(pg && lab);
    EXPECT_EQ(pg->status.code, 1);
    EXPECT_EQ(lab->status.code, 1);
    EXPECT_EQ(lab->out, "");
    EXPECT_TRUE(matches(lab->err, "error while setting random seed from PGBENCH_RANDOM_SEED "
                                  "environment variable"));
    EXPECT_EQ(normalize_stderr(lab->err), normalize_stderr(pg->err));
}

TEST(OptionTest, TooManyClientsForTheSoftLimit) {
    // pgbench 15 compares with the soft limit and never raises it; so does pglab as 15.
    rlimit limit{};
    ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
    if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > 2000000000) {
        GTEST_SKIP() << "no finite soft limit on open files";
    }
    const std::string clients = std::to_string(limit.rlim_cur);
    expect_same_failure("-c " + clients, {"need at least [0-9]+ open files, but system limit is",
                                          "Reduce number of clients"});
}

TEST(OptionTest, HelpHasPgbenchSections) {
    const auto lab = run_pglab("--help");
    EXPECT_EQ(lab.status.code, 0);
    EXPECT_EQ(lab.err, "");
    for (const char* re : {"benchmarking tool for PostgreSQL", "Usage",
                           "Initialization options:", "Options to select what to run:",
                           "Benchmarking options:", "Common options:", "Report bugs to"}) {
        EXPECT_TRUE(matches(lab.out, re)) << re;
    }
    // Every option line of pgbench's help is in ours.
    const auto pg = run_pgbench("--help");
    std::istringstream lines(pg.out);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("  -", 0) == 0) {
            EXPECT_NE(lab.out.find(line), std::string::npos) << line;
        }
    }
    EXPECT_EQ(run_pglab("-?").out, lab.out);
}

TEST(OptionTest, VersionIsPgbenchsLine) {
    for (const char* arg : {"-V", "--version"}) {
        const auto pg = run_pgbench(arg);
        const auto lab = run_pglab(arg);
        EXPECT_EQ(lab.status.code, 0);
        EXPECT_EQ(lab.err, "");
        EXPECT_EQ(lab.out, pg.out); // "pgbench (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)\n"
    }
}

TEST(OptionTest, BuiltinListGoesToStderr) {
    const auto pg = run_pgbench("-b list");
    const auto lab = run_pglab("-b list");
    EXPECT_EQ(lab.status.code, 0);
    EXPECT_EQ(lab.out, "");
    for (const char* re :
         {"Available builtin scripts:", "tpcb-like", "simple-update", "select-only"}) {
        EXPECT_TRUE(matches(lab.err, re)) << re;
    }
    EXPECT_EQ(lab.err, pg.err);
}

TEST(OptionTest, ShowScriptPrintsTheBuiltin) {
    for (const char* name : {"se", "select-only", "tpcb", "simple-update"}) {
        const std::string args = std::string("--show-script ") + name;
        const auto pg = run_pgbench(args);
        const auto lab = run_pglab(args);
        EXPECT_EQ(lab.status.code, 0);
        EXPECT_EQ(lab.out, "");
        EXPECT_EQ(lab.err, pg.err) << name;
    }
    const auto lab = run_pglab("--show-script se");
    EXPECT_TRUE(matches(lab.err, "select-only: "));
    EXPECT_TRUE(matches(lab.err, "SELECT abalance FROM pgbench_accounts WHERE"));
    EXPECT_FALSE(matches(lab.err, "UPDATE"));
    EXPECT_FALSE(matches(lab.err, "INSERT"));
    expect_same_failure("--show-script s", {"ambiguous"});
}

} // namespace
} // namespace pglab
