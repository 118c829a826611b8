// Parsing of `pglab bench` arguments: what pgbench 15 accepts, in which order it complains, and
// the configuration it builds. No server, no real files: BenchParseEnv is faked.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "options/bench_options.hpp"

namespace pglab::options {
namespace {

class BenchOptionsTest : public ::testing::Test {
protected:
    BenchOptionsTest() {
        // pgbench 15's behaviour unless a test selects another release
        m_vars["PGLAB_PGBENCH_VERSION"] = "15";
        m_env.getenv = [this](const char* name) -> std::optional<std::string> {
            auto it = m_vars.find(name);
            if (it == m_vars.end()) {
                return std::nullopt;
            }
            return it->second;
        };
        m_env.ensure_open_files = [this](int clients, bool raise) -> Status {
            m_fd_checks.push_back(clients);
            m_fd_raises.push_back(raise);
            return {};
        };
        m_env.read_file = [this](const std::string& path) -> Result<std::string> {
            auto it = m_files.find(path);
            if (it == m_files.end()) {
                return make_error("could not open file \"" + path
                                  + "\": No such file or directory");
            }
            return it->second;
        };
        m_env.read_stdin = [this]() -> Result<std::string> { return m_stdin; };
        m_env.os_user = []() -> Result<std::string> { return std::string("osuser"); };
        m_env.report = [this](bool is_error, const Error& e) {
            m_reports.push_back((is_error ? "error: " : "") + e.message);
        };
    }

    Result<BenchOptions> parse(std::vector<std::string> args) {
        return parse_bench_options(args, m_env);
    }

    /// The error message of a failing parse ("<ok>" if it succeeded).
    std::string error_of(std::vector<std::string> args) {
        auto r = parse(std::move(args));
        return r ? std::string("<ok>") : r.error().message;
    }

    BenchParseEnv m_env;
    std::map<std::string, std::string> m_vars;
    std::map<std::string, std::string> m_files;
    std::string m_stdin;
    std::vector<int> m_fd_checks;
    std::vector<bool> m_fd_raises;
    std::vector<std::string> m_reports;
};

TEST_F(BenchOptionsTest, DefaultsRunTpcbLikeTenTransactions) {
    auto r = parse({});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->action, BenchAction::benchmark);
    const auto& run = r->run;
    ASSERT_EQ(run.scripts.scripts().size(), 1U);
    EXPECT_EQ(run.scripts.scripts()[0].desc, "<builtin: TPC-B (sort of)>");
    EXPECT_TRUE(run.uses_builtin);
    EXPECT_EQ(run.transactions, 10);
    EXPECT_EQ(run.duration_s, 0);
    EXPECT_EQ(run.clients, 1);
    EXPECT_EQ(run.threads, 1);
    EXPECT_EQ(run.max_tries, 1U);
    EXPECT_EQ(run.query_mode, script::QueryMode::simple);
    EXPECT_EQ(run.conn.dbname, "osuser");
    EXPECT_FALSE(run.random_seed_given);
    EXPECT_TRUE(m_reports.empty());
}

TEST_F(BenchOptionsTest, PglabExtrasAreOffUnlessAsked) {
    auto plain = parse({});
    ASSERT_TRUE(plain) << plain.error().message;
    EXPECT_FALSE(plain->run.percentiles);
    EXPECT_FALSE(plain->run.log_last_interval);
    EXPECT_TRUE(plain->export_json.empty());
    auto asked = parse({"--percentiles", "--log-last-interval", "-l", "--aggregate-interval=1"});
    ASSERT_TRUE(asked) << asked.error().message;
    EXPECT_TRUE(asked->run.percentiles);
    EXPECT_TRUE(asked->run.log_last_interval);
    // Benchmarking options: refused with -i, as pgbench refuses its own.
    EXPECT_EQ(error_of({"-i", "--percentiles"}),
              "some of the specified options cannot be used in initialization (-i) mode");
}

TEST_F(BenchOptionsTest, DbnameComesFromArgumentsThenEnvironment) {
    m_vars["PGUSER"] = "pguser";
    EXPECT_EQ(parse({})->run.conn.dbname, "pguser");
    m_vars["PGDATABASE"] = "pgdb";
    EXPECT_EQ(parse({})->run.conn.dbname, "pgdb");
    EXPECT_EQ(parse({"mydb", "-c", "2"})->run.conn.dbname, "mydb"); // getopt permutes
    m_vars["PGDATABASE"] = "";
    EXPECT_EQ(parse({})->run.conn.dbname, "pguser");
}

TEST_F(BenchOptionsTest, ExtraArgumentsAreRejected) {
    auto r = parse({"x", "y"});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "too many command-line arguments (first is \"y\")");
    EXPECT_EQ(r.error().hint, "Try \"pglab bench --help\" for more information.");
}

TEST_F(BenchOptionsTest, UnknownOptionLeavesOnlyTheHint) {
    auto r = parse({"--bad-option"});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "");
    EXPECT_EQ(r.error().hint, "Try \"pglab bench --help\" for more information.");
    EXPECT_FALSE(parse({"-c", "1", "--help"}));
    EXPECT_FALSE(parse({"-V"}));
}

TEST_F(BenchOptionsTest, BenchmarkOptionsFillTheRunConfig) {
    auto r = parse({"-c",
                    "4",
                    "-j",
                    "8",
                    "-C",
                    "-n",
                    "-v",
                    "-r",
                    "-M",
                    "prepared",
                    "-P",
                    "2",
                    "--progress-timestamp",
                    "-R",
                    "100.5",
                    "-L",
                    "1.5",
                    "-T",
                    "30",
                    "--max-tries=0",
                    "--failures-detailed",
                    "--verbose-errors",
                    "-l",
                    "--log-prefix=pfx",
                    "--aggregate-interval=10",
                    "-s",
                    "7",
                    "-d",
                    "-h",
                    "host",
                    "-p",
                    "5433",
                    "-U",
                    "bob",
                    "db"});
    ASSERT_TRUE(r) << r.error().message;
    const auto& run = r->run;
    EXPECT_EQ(run.clients, 4);
    EXPECT_EQ(run.threads, 4); // clamped to clients
    EXPECT_TRUE(run.connect_per_tx);
    EXPECT_TRUE(run.no_vacuum);
    EXPECT_TRUE(run.vacuum_accounts);
    EXPECT_TRUE(run.report_per_command);
    EXPECT_EQ(run.query_mode, script::QueryMode::prepared);
    EXPECT_EQ(run.progress_s, 2);
    EXPECT_TRUE(run.progress_timestamp);
    EXPECT_DOUBLE_EQ(run.rate_tps, 100.5);
    EXPECT_EQ(run.latency_limit_us, 1500);
    EXPECT_EQ(run.duration_s, 30);
    EXPECT_EQ(run.transactions, 0);
    EXPECT_EQ(run.max_tries, 0U);
    EXPECT_TRUE(run.failures_detailed);
    EXPECT_TRUE(run.verbose_errors);
    EXPECT_TRUE(run.log_transactions);
    EXPECT_EQ(run.log_prefix, "pfx");
    EXPECT_EQ(run.aggregate_interval_s, 10);
    EXPECT_EQ(run.scale, 7);
    EXPECT_TRUE(run.scale_given);
    EXPECT_TRUE(r->debug);
    EXPECT_EQ(run.conn.host, "host");
    EXPECT_EQ(run.conn.port, "5433");
    EXPECT_EQ(run.conn.user, "bob");
    EXPECT_EQ(run.conn.dbname, "db");
    EXPECT_EQ(m_fd_checks, std::vector<int>{4});
}

TEST_F(BenchOptionsTest, VersionComesFromTheOptionThenTheEnvironmentElse18) {
    m_vars.erase("PGLAB_PGBENCH_VERSION");
    EXPECT_EQ(parse({})->pgbench->major, 18);
    m_vars["PGLAB_PGBENCH_VERSION"] = "16";
    EXPECT_EQ(parse({})->pgbench->major, 16);
    EXPECT_EQ(parse({"--pgbench-version=17"})->pgbench->major, 17);
    EXPECT_EQ(parse({"--pgbench-version", "15", "db"})->pgbench->major, 15);
    EXPECT_EQ(parse({"--pgbench-version=18.6"})->pgbench->major, 18);
    EXPECT_EQ(parse({"--pgbench-version=19"})->pgbench->major, 19);
    EXPECT_TRUE(parse({"--pgbench-version=19", "--continue-on-error"})->run.continue_on_error);
    auto r = parse({"--pgbench-version=18"});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->run.pgbench, r->pgbench); // the run and the report speak as the same release
    EXPECT_EQ(r->init.pgbench, r->pgbench);
}

TEST_F(BenchOptionsTest, UnknownVersionsAreRefused) {
    auto r = parse({"--pgbench-version=14"});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "invalid value \"14\" for option --pgbench-version");
    EXPECT_EQ(r.error().detail, "pglab speaks as pgbench 15, 16, 17, 18 or 19.");
    EXPECT_EQ(r.error().exit_code, 1);
    EXPECT_EQ(error_of({"--pgbench-version=18x"}),
              "invalid value \"18x\" for option --pgbench-version");
    m_vars["PGLAB_PGBENCH_VERSION"] = "20";
    EXPECT_EQ(error_of({}), "invalid value \"20\" of environment variable PGLAB_PGBENCH_VERSION");
    m_vars["PGLAB_PGBENCH_VERSION"] = "19";
    EXPECT_EQ(parse({})->pgbench->major, 19);
    // pglab's options are spelt out in full: an abbreviation is unknown, as to pgbench
    m_vars["PGLAB_PGBENCH_VERSION"] = "18";
    EXPECT_EQ(error_of({"--pgbench-v=15"}), ""); // getopt complained
    EXPECT_EQ(error_of({"--percentile"}), "");
    EXPECT_TRUE(parse({"--percentiles"}));
}

TEST_F(BenchOptionsTest, DashDIsDebugUpTo16AndDbnameFrom17) {
    for (const char* v : {"15", "16"}) {
        m_vars["PGLAB_PGBENCH_VERSION"] = v;
        auto r = parse({"-d", "mydb"});
        ASSERT_TRUE(r) << v;
        EXPECT_TRUE(r->debug);
        EXPECT_EQ(r->run.conn.dbname, "mydb");
        EXPECT_TRUE(parse({"--debug"})->debug);
        EXPECT_EQ(error_of({"--dbname=x"}), ""); // unknown to getopt: it complained
        EXPECT_EQ(error_of({"--exit-on-abort"}), "");
    }
    for (const char* v : {"17", "18"}) {
        m_vars["PGLAB_PGBENCH_VERSION"] = v;
        auto r = parse({"-d", "mydb"});
        ASSERT_TRUE(r) << v;
        EXPECT_FALSE(r->debug);
        EXPECT_EQ(r->run.conn.dbname, "mydb");
        EXPECT_EQ(parse({"--dbname=named", "-c", "1"})->run.conn.dbname, "named");
        EXPECT_TRUE(parse({"--debug"})->debug);
        EXPECT_TRUE(parse({"--exit-on-abort"})->run.exit_on_abort);
        EXPECT_EQ(error_of({"--dbname", "a", "b"}),
                  "too many command-line arguments (first is \"b\")");
        EXPECT_EQ(error_of({"-d"}), ""); // -d needs an argument now
    }
}

TEST_F(BenchOptionsTest, ClientOptionNameAndOpenFilesFollowTheRelease) {
    EXPECT_EQ(error_of({"-c", "three"}), "invalid value \"three\" for option -c/--clients");
    m_vars["PGLAB_PGBENCH_VERSION"] = "17";
    EXPECT_EQ(error_of({"-c", "three"}), "invalid value \"three\" for option -c/--clients");
    ASSERT_TRUE(parse({"-c", "2"}));
    m_vars["PGLAB_PGBENCH_VERSION"] = "18";
    EXPECT_EQ(error_of({"-c", "three"}), "invalid value \"three\" for option -c/--client");
    ASSERT_TRUE(parse({"-c", "3"}));
    m_vars["PGLAB_PGBENCH_VERSION"] = "19"; // as 18: Debian's pgbench 19rc1 says so
    EXPECT_EQ(error_of({"-c", "three"}), "invalid value \"three\" for option -c/--client");
    EXPECT_EQ(error_of({"-c", "0"}), "-c/--client must be in range 1..2147483647");
    m_vars["PGLAB_PGBENCH_VERSION"] = "18";
    EXPECT_EQ(m_fd_checks, (std::vector<int>{2, 3}));
    EXPECT_EQ(m_fd_raises, (std::vector<bool>{false, true})); // 18 raises the soft limit
}

TEST_F(BenchOptionsTest, SyncpipelineIsACommandFrom17) {
    m_files["p.sql"] = "\\startpipeline\nselect 1;\n\\syncpipeline\n\\endpipeline\n";
    m_vars["PGLAB_PGBENCH_VERSION"] = "16";
    EXPECT_EQ(error_of({"-f", "p.sql"}), "p.sql:3: invalid command in command \"syncpipeline\"");
    m_vars["PGLAB_PGBENCH_VERSION"] = "17";
    EXPECT_TRUE(parse({"-f", "p.sql"}));
}

TEST_F(BenchOptionsTest, ScriptsLoadInCommandLineOrderWithWeights) {
    m_files["a.sql"] = "SELECT 1;\n";
    m_stdin = "SELECT 2;\n";
    auto r = parse({"-S", "-f", "a.sql@3", "-b", "simple@2", "-f", "-", "-N"});
    ASSERT_TRUE(r) << r.error().message;
    const auto& scripts = r->run.scripts.scripts();
    ASSERT_EQ(scripts.size(), 5U);
    EXPECT_EQ(scripts[0].desc, "<builtin: select only>");
    EXPECT_EQ(scripts[1].desc, "a.sql");
    EXPECT_EQ(scripts[1].weight, 3);
    EXPECT_EQ(scripts[2].desc, "<builtin: simple update>");
    EXPECT_EQ(scripts[2].weight, 2);
    EXPECT_EQ(scripts[3].desc, "-");
    EXPECT_EQ(scripts[4].desc, "<builtin: simple update>");
    EXPECT_TRUE(r->run.uses_builtin);

    auto custom = parse({"-f", "a.sql"});
    ASSERT_TRUE(custom);
    EXPECT_FALSE(custom->run.uses_builtin);
}

TEST_F(BenchOptionsTest, DefinesKeepOrderAndLastValue) {
    auto r = parse({"-D", "a=1", "-Db=x=y", "--define=a=2"});
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->run.defines.size(), 2U);
    EXPECT_EQ(r->run.defines[0].name, "a");
    EXPECT_EQ(r->run.defines[0].value, "2");
    EXPECT_EQ(r->run.defines[1].name, "b");
    EXPECT_EQ(r->run.defines[1].value, "x=y");
    EXPECT_EQ(error_of({"-D", "=x"}), "invalid variable definition: \"=x\"");
    EXPECT_EQ(error_of({"-D", "x="}), "invalid variable definition: \"x=\"");
    EXPECT_EQ(error_of({"-D", "1a=2"}), "option: invalid variable name: \"1a\"");
}

TEST_F(BenchOptionsTest, TheCommandLineSaysWhichOptionsItSet) {
    auto r = parse({"-c4", "--tim=10", "-nM", "prepared", "--define=x=1"});
    ASSERT_TRUE(r) << r.error().message;
    for (const char letter : {'c', 'T', 'n', 'M', 'D'}) {
        EXPECT_TRUE(r->given.has(letter)) << letter;
    }
    for (const char letter : {'t', 'j', 'R', 's', '\0'}) {
        EXPECT_FALSE(r->given.has(letter)) << letter;
    }
}

TEST_F(BenchOptionsTest, DefaultsApplyWhereTheCommandLineIsSilent) {
    const std::vector<OptionDefault> defaults{{'c', "4"},     {'j', "2"},        {'T', "60"},
                                              {'R', "100.5"}, {'D', "delay=80"}, {'D', "x=0"}};
    auto r = parse_bench_options({"-c8", "-D", "x=1"}, m_env, defaults);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->run.clients, 8);
    EXPECT_EQ(r->run.threads, 2);
    EXPECT_EQ(r->run.duration_s, 60);
    EXPECT_EQ(r->run.transactions, 0);
    EXPECT_DOUBLE_EQ(r->run.rate_tps, 100.5);
    ASSERT_EQ(r->run.defines.size(), 2U);
    EXPECT_EQ(r->run.defines[0].name, "delay");
    EXPECT_EQ(r->run.defines[1].name, "x");
    EXPECT_EQ(r->run.defines[1].value, "1"); // the command line's define wins
    // -c was replaced; the defines stay, in the caller's order
    const std::vector<OptionDefault> applied{
        {'j', "2"}, {'T', "60"}, {'R', "100.5"}, {'D', "delay=80"}, {'D', "x=0"}};
    EXPECT_EQ(r->defaults_applied, applied);
    EXPECT_FALSE(r->given.has('j'));
}

TEST_F(BenchOptionsTest, TransactionsAndDurationReplaceEachOthersDefault) {
    const std::vector<OptionDefault> duration{{'T', "10"}};
    auto by_count = parse_bench_options({"-t", "1000"}, m_env, duration);
    ASSERT_TRUE(by_count) << by_count.error().message;
    EXPECT_EQ(by_count->run.transactions, 1000);
    EXPECT_EQ(by_count->run.duration_s, 0);
    EXPECT_TRUE(by_count->defaults_applied.empty());
    const std::vector<OptionDefault> count{{'t', "50"}};
    auto by_time = parse_bench_options({"--time=5"}, m_env, count);
    ASSERT_TRUE(by_time) << by_time.error().message;
    EXPECT_EQ(by_time->run.duration_s, 5);
    EXPECT_EQ(by_time->run.transactions, 0);
    // both as defaults: pgbench's refusal, as both on a command line
    auto both = parse_bench_options({}, m_env, {{'T', "10"}, {'t', "50"}});
    ASSERT_FALSE(both);
    EXPECT_EQ(both.error().message,
              "specify either a number of transactions (-t) or a duration (-T), not both");
}

TEST_F(BenchOptionsTest, ADefaultIsCheckedAsItsOption) {
    auto bad = parse_bench_options({}, m_env, {{'c', "many"}});
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message, "invalid value \"many\" for option -c/--clients");
    auto init = parse_bench_options({"-i", "-q"}, m_env, {{'s', "50"}});
    ASSERT_TRUE(init) << init.error().message;
    EXPECT_EQ(init->init.scale, 50);
    auto flag = parse_bench_options({}, m_env, {{'n', ""}});
    ASSERT_FALSE(flag);
    EXPECT_EQ(flag.error().message, "-n takes no value and cannot have a default");
}

TEST_F(BenchOptionsTest, InitModeBuildsSteps) {
    auto r = parse({"-i", "-n", "--foreign-keys", "-s", "3", "-F", "90", "-q", "--partitions=4",
                    "--tablespace=ts", "--index-tablespace=its", "--unlogged-tables", "db"});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->action, BenchAction::initialize);
    const auto& init = r->init;
    EXPECT_EQ(init.steps, "dtg pf");
    EXPECT_EQ(init.scale, 3);
    EXPECT_EQ(init.fillfactor, 90);
    EXPECT_TRUE(init.quiet);
    EXPECT_EQ(init.partitions, 4);
    EXPECT_EQ(init.partition_method, init::PartitionMethod::range);
    EXPECT_EQ(init.tablespace, "ts");
    EXPECT_EQ(init.index_tablespace, "its");
    EXPECT_TRUE(init.unlogged);
    EXPECT_EQ(init.conn.dbname, "db");

    auto steps =
        parse({"-i", "-I", "dtGvf", "--foreign-keys", "--partitions=2", "--partition-method=HASH"});
    ASSERT_TRUE(steps);
    EXPECT_EQ(steps->init.steps, "dtGvf");
    EXPECT_EQ(steps->init.partition_method, init::PartitionMethod::hash);
}

TEST_F(BenchOptionsTest, RandomSeedIsAnnounced) {
    m_vars["PGBENCH_RANDOM_SEED"] = "7";
    auto r = parse({});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->run.random_seed, 7U);
    EXPECT_TRUE(r->run.random_seed_given);
    auto s = parse({"--random-seed=42"});
    ASSERT_TRUE(s);
    EXPECT_EQ(s->run.random_seed, 42U);
    EXPECT_EQ(m_reports,
              (std::vector<std::string>{"setting random seed to 7", "setting random seed to 7",
                                        "setting random seed to 42"}));
}

TEST_F(BenchOptionsTest, BadRandomSeedIsTwoErrors) {
    auto r = parse({"--random-seed=one"});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "error while setting random seed from --random-seed option");
    EXPECT_EQ(m_reports,
              std::vector<std::string>{"error: unrecognized random seed option \"one\""});
    m_reports.clear();
    m_vars["PGBENCH_RANDOM_SEED"] = "x";
    EXPECT_EQ(error_of({}),
              "error while setting random seed from PGBENCH_RANDOM_SEED environment variable");
}

TEST_F(BenchOptionsTest, SocketIoFromTheEnvironmentUnlessAnOptionSaysOtherwise) {
    using pglab::bench::SocketIo;
    const auto socket_io = [&](std::vector<std::string> args) {
        auto r = parse(std::move(args));
        EXPECT_TRUE(r) << (r ? "" : r.error().message);
        return r ? r->run.socket_io : SocketIo::automatic;
    };
    EXPECT_EQ(socket_io({}), SocketIo::automatic);
    EXPECT_EQ(socket_io({"--io-uring"}), SocketIo::ring);
    EXPECT_EQ(socket_io({"--no-io-uring"}), SocketIo::epoll);
    EXPECT_EQ(socket_io({"--no-io-uring", "--io-uring"}), SocketIo::ring) << "the last one wins";
    m_vars["PGLAB_IO_URING"] = "always";
    EXPECT_EQ(socket_io({}), SocketIo::ring);
    EXPECT_EQ(socket_io({"--no-io-uring"}), SocketIo::epoll);
    m_vars["PGLAB_IO_URING"] = "never";
    EXPECT_EQ(socket_io({}), SocketIo::epoll);
    EXPECT_EQ(socket_io({"--io-uring"}), SocketIo::ring);
    m_vars["PGLAB_IO_URING"] = "auto";
    EXPECT_EQ(socket_io({}), SocketIo::automatic);
    m_vars["PGLAB_IO_URING"] = "yes";
    EXPECT_EQ(
        error_of({}),
        "invalid value \"yes\" of environment variable PGLAB_IO_URING: auto, always or never");
}

TEST_F(BenchOptionsTest, ListAndShowScriptStopParsing) {
    auto list = parse({"-b", "list", "-c", "three"});
    ASSERT_TRUE(list);
    EXPECT_EQ(list->action, BenchAction::list_builtins);
    EXPECT_NE(list->text.find("Available builtin scripts:"), std::string::npos);
    auto show = parse({"--show-script", "se"});
    ASSERT_TRUE(show);
    EXPECT_EQ(show->action, BenchAction::show_script);
    EXPECT_EQ(show->text.rfind("-- select-only: <builtin: select only>\n", 0), 0U);
    EXPECT_NE(show->text.find("SELECT abalance FROM pgbench_accounts WHERE"), std::string::npos);
}

/// The option errors of pgbench's 002_pgbench_no_server.pl, as full messages.
struct ErrorCase {
    std::vector<std::string> args;
    std::string message;
};

TEST_F(BenchOptionsTest, TapOptionErrorsInPgbenchOrder) {
    const std::vector<ErrorCase> cases = {
        {{"-f", "no-such-file"}, "could not open file \"no-such-file\": No such file or directory"},
        {{"-b", "no-such-builtin"}, "no builtin script found for name \"no-such-builtin\""},
        {{"--builtin=select-only@one"}, "invalid weight specification: @one"},
        {{"-b", "select-only@-1"}, "weight specification out of range (0 .. 2147483647): -1"},
        {{"-c", "three"}, "invalid value \"three\" for option -c/--clients"},
        {{"-j", "eleven"}, "invalid value \"eleven\" for option -j/--jobs"},
        {{"-i", "-s", "two"}, "invalid value \"two\" for option -s/--scale"},
        {{"-t", "zil"}, "invalid value \"zil\" for option -t/--transactions"},
        {{"-T", "ten"}, "invalid value \"ten\" for option -T/--time"},
        {{"-N", "-l", "--aggregate-interval=5", "--log-prefix=notused", "-t", "1000", "-T", "1"},
         "specify either a number of transactions (-t) or a duration (-T), not both"},
        {{"-P", "1", "--progress-timestamp", "-l", "--sampling-rate=0.001", "-T", "10", "-t",
          "1000"},
         "specify either a number of transactions (-t) or a duration (-T), not both"},
        {{"--define", "foobla"}, "invalid variable definition: \"foobla\""},
        {{"-F", "1"}, "-F/--fillfactor must be in range 10..100"},
        {{"-M", "no-such-mode"}, "invalid query mode (-M): \"no-such-mode\""},
        {{"--progress=0"}, "-P/--progress must be in range 1..2147483647"},
        {{"--rate=0.0"}, "invalid rate limit: \"0.0\""},
        {{"--latency-limit=0.0"}, "invalid latency limit: \"0.0\""},
        {{"--sampling-rate=0"}, "invalid sampling rate: \"0\""},
        {{"--aggregate-interval=-3"}, "--aggregate-interval must be in range 1..2147483647"},
        {{"-b", "se@0", "-b", "si@0", "-b", "tpcb@0"}, "total script weight must not be zero"},
        {{"-i", "-S"}, "some of the specified options cannot be used in initialization (-i) mode"},
        {{"-S", "-F", "90"}, "some of the specified options cannot be used in benchmarking mode"},
        {{"-b", "s"}, "ambiguous builtin name: 2 builtin scripts found for prefix \"s\""},
        {{"--progress-timestamp"}, "--progress-timestamp is allowed only under --progress"},
        {{"-I", "dtg"}, "some of the specified options cannot be used in benchmarking mode"},
        {{"-i", "-I", "dta"}, "unrecognized initialization step \"a\""},
        {{"-i", "-I", ""}, "no initialization steps specified"},
        {{"-i", "--partition-method=BAD"},
         "invalid partition method, expecting \"range\" or \"hash\", got: \"BAD\""},
        {{"-i", "--partitions", "-1"}, "--partitions must be in range 0..2147483647"},
        {{"-i", "--partition-method=hash"},
         "--partition-method requires greater than zero --partitions"},
        {{"--max-tries", "-10"}, "invalid number of maximum tries: \"-10\""},
        {{"--max-tries", "0"},
         "an unlimited number of transaction tries can only be used with --latency-limit or a "
         "duration (-T)"},
        {{"--sampling-rate=0.01"},
         "log sampling (--sampling-rate) is allowed only when logging transactions (-l)"},
        {{"-l", "--sampling-rate=0.1", "--aggregate-interval=3"},
         "log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at "
         "the same time"},
        {{"--aggregate-interval=3"},
         "log aggregation is allowed only when actually logging transactions"},
        {{"--log-prefix=x"},
         "log file prefix (--log-prefix) is allowed only when logging transactions (-l)"},
        {{"-l", "-T", "1", "--aggregate-interval=3"},
         "number of seconds for aggregation (3) must not be higher than test duration (1)"},
        {{"-l", "-T", "5", "--aggregate-interval=3"},
         "duration (5) must be a multiple of aggregation interval (3)"},
        // Order: the first bad option wins; getopt-time errors precede final checks.
        {{"-c", "0", "-j", "x"}, "-c/--clients must be in range 1..2147483647"},
        {{"-t", "1", "-T", "1", "-c", "x"}, "invalid value \"x\" for option -c/--clients"},
        {{"-i", "-S", "x", "y"}, "too many command-line arguments (first is \"y\")"},
        {{"-S", "-F", "90", "-t", "1", "-T", "1"},
         "some of the specified options cannot be used in benchmarking mode"},
    };
    for (const auto& c : cases) {
        std::string joined;
        for (const auto& a : c.args) {
            joined += a + " ";
        }
        EXPECT_EQ(error_of(c.args), c.message) << joined;
    }
}

TEST_F(BenchOptionsTest, TooManyScripts) {
    std::vector<std::string> args(129, "-S");
    EXPECT_EQ(error_of(args), "at most 128 SQL scripts are allowed");
    args.pop_back();
    EXPECT_EQ(error_of(args), "<ok>");
}

TEST_F(BenchOptionsTest, ClientCountChecksOpenFiles) {
    m_env.ensure_open_files = [](int clients, bool /*raise*/) -> Status {
        return make_error("need at least " + std::to_string(clients + 3)
                          + " open files, but system limit is 20");
    };
    EXPECT_EQ(error_of({"-c", "30"}), "need at least 33 open files, but system limit is 20");
}

} // namespace
} // namespace pglab::options
