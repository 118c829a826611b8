// What a harness that calls pgbench by name sees, with pglab in its place: the banner and the -V
// line byte for byte, no pglab extra on stdout unless asked (--percentiles), death by SIGINT and
// SIGTERM as pgbench's (an inherited ignored SIGINT stays ignored), -i stopped by SIGINT (a
// cancel request, exit 1) or SIGTERM (death) as pgbench's, and the lag column of skipped
// transactions in -l logs. Each case runs the reference pgbench 15 and pglab against one server.
#include "support/compat.hpp"
#include "support/files.hpp"
#include "support/run_command.hpp"
#include "support/test_server.hpp"
#include "util/subprocess.hpp"

#include <gtest/gtest.h>

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using support::CommandResult;

constexpr const char* k_drop_in_db = "drop_in";

CommandResult run_drop_in(bool pglab, const std::vector<std::string>& args,
                          const fs::path& dir = {}) {
    std::vector<std::string> argv = support::bench_program(pglab);
    argv.insert(argv.end(), args.begin(), args.end());
    support::EnvOverrides env = support::server_env(k_drop_in_db);
    if (!dir.empty()) {
        env.emplace_back("PGLAB_TEST_CWD", dir.string());
        argv.insert(argv.begin(), {"/bin/sh", "-c", "cd \"$PGLAB_TEST_CWD\" && exec \"$@\"", "sh"});
    }
    return support::run_command(argv, env);
}

using support::read_file;

class DropInTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        support::run_sql(std::string("drop database if exists ") + k_drop_in_db);
        support::run_sql(std::string("create database ") + k_drop_in_db);
        const auto init = run_drop_in(false, {"-i", "-q"});
        ASSERT_EQ(init.exit_code, 0) << support::describe(init);
    }

    void SetUp() override {
        char tmpl[] = "/tmp/pglab-dropin-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        m_dir = tmpl;
    }

    void TearDown() override {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    /// Starts `pgbench` or `pglab bench` with `args` in the background, stdout and stderr to
    /// files of `name`; `shell_prefix` runs before exec (a trap, say).
    auto start(bool pglab, const std::string& name, const std::vector<std::string>& args,
               const std::string& shell_prefix = "") const {
        pglab::util::SpawnOptions o;
        o.argv = {"/bin/sh", "-c",
                  shell_prefix + "exec \"$@\" >\"" + out_path(name).string() + "\" 2>\""
                      + err_path(name).string() + "\"",
                  "sh"};
        const std::vector<std::string> prog = support::bench_program(pglab);
        o.argv.insert(o.argv.end(), prog.begin(), prog.end());
        o.argv.insert(o.argv.end(), args.begin(), args.end());
        o.env = support::server_env(k_drop_in_db);
        o.env.emplace_back("PGLAB_PGBENCH_VERSION", std::to_string(support::k_reference_major));
        o.unset_env = {"PGOPTIONS", "PGSERVICE", "PGPASSWORD"};
        o.output = pglab::util::Output::discard;
        return pglab::util::ChildProcess::start(o);
    }

    /// start(), then `sig` once its two clients have run a statement; how it ended, or nothing
    /// when it is still running long after (or could not start, or never got going).
    std::optional<pglab::util::ExitStatus>
    signalled_when_running(bool pglab, const std::string& name,
                           const std::vector<std::string>& args, int sig,
                           const std::string& shell_prefix = "") const {
        auto child = start(pglab, name, args, shell_prefix);
        if (!child) {
            ADD_FAILURE() << child.error().message;
            return std::nullopt;
        }
        if (!support::wait_for_sql(support::test_server(), support::bench_sessions_active(2),
                                   support::k_event_timeout, k_drop_in_db)) {
            ADD_FAILURE() << "the clients never ran: " << read_file(err_path(name));
            return std::nullopt;
        }
        child->send_signal(sig);
        return child->wait(support::k_event_timeout);
    }

    fs::path out_path(const std::string& name) const { return m_dir / (name + ".out"); }

    fs::path err_path(const std::string& name) const { return m_dir / (name + ".err"); }

    fs::path m_dir;
};

/// The first line of a run's stdout.
std::string first_line(const std::string& out) {
    return out.substr(0, out.find('\n') + 1);
}

TEST_F(DropInTest, BannerAndVersionLineAreThoseOfPgbench) {
    const auto pg = run_drop_in(false, {"-n", "-S", "-t", "5"});
    const auto lab = run_drop_in(true, {"-n", "-S", "-t", "5"});
    ASSERT_EQ(pg.exit_code, 0) << support::describe(pg);
    ASSERT_EQ(lab.exit_code, 0) << support::describe(lab);
    EXPECT_EQ(first_line(lab.out), first_line(pg.out));
    EXPECT_TRUE(std::regex_search(lab.out, std::regex(R"(^pgbench \()"))) << lab.out;

    const auto pg_version = support::run_command({support::pgbench_binary(), "-V"});
    const auto lab_version = support::run_command({support::pglab_binary(), "bench", "-V"});
    EXPECT_EQ(lab_version.exit_code, pg_version.exit_code);
    EXPECT_EQ(lab_version.out, pg_version.out);
    EXPECT_EQ(lab_version.err, pg_version.err);
}

TEST_F(DropInTest, ThroughALinkNamedPgbenchItIsPgbench) {
    // A harness that calls `pgbench` by name, with pglab linked in its place: the same bytes on
    // stdout and stderr, messages and hints included ("pgbench: error: ...").
    const fs::path link = m_dir / "pgbench";
    fs::create_symlink(support::pglab_binary(), link);
    const std::vector<std::vector<std::string>> cases = {{"-V"},
                                                         {"--help"},
                                                         {"-c", "three"},
                                                         {"-x"},
                                                         {"-t", "1", "-T", "1"},
                                                         {"--no-such-option"},
                                                         {"--ex=1"},
                                                         {"--d"}};
    for (const auto& args : cases) {
        SCOPED_TRACE(args.front());
        std::vector<std::string> pg = {support::pgbench_binary()};
        std::vector<std::string> lab = {link.string()};
        pg.insert(pg.end(), args.begin(), args.end());
        lab.insert(lab.end(), args.begin(), args.end());
        const auto a = support::run_command(pg);
        const auto b = support::run_command(lab);
        EXPECT_EQ(b.exit_code, a.exit_code) << support::describe(b);
        EXPECT_EQ(b.out, a.out);
        // getopt names the program as invoked (argv[0]), a path of its own for each.
        std::string expected_err = a.err;
        for (size_t at = expected_err.find(support::pgbench_binary()); at != std::string::npos;
             at = expected_err.find(support::pgbench_binary(), at)) {
            expected_err.replace(at, support::pgbench_binary().size(), link.string());
        }
        EXPECT_EQ(b.err, expected_err);
    }
    std::vector<std::string> run = {link.string(), "-n", "-S", "-t", "5"};
    const auto r = support::run_command(run, support::server_env(k_drop_in_db));
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_EQ(r.err, "");
    const auto pg = run_drop_in(false, {"-n", "-S", "-t", "5"});
    EXPECT_EQ(first_line(r.out), first_line(pg.out));
    EXPECT_EQ(support::masked_stdout_keys(r.out), support::masked_stdout_keys(pg.out));
}

TEST_F(DropInTest, PercentilesOnlyWhenAsked) {
    // The last stdout line of a select-only run is pgbench's tps line, so that
    // `pgbench ... | tail -n1 | awk '{print $3}'` reads the tps from pglab too.
    const auto pg = run_drop_in(false, {"-n", "-S", "-t", "20", "-c", "2"});
    const auto lab = run_drop_in(true, {"-n", "-S", "-t", "20", "-c", "2"});
    ASSERT_EQ(lab.exit_code, 0) << support::describe(lab);
    const std::regex tps_last(R"(\ntps = [0-9.]+ \(without initial connection time\)\n$)");
    EXPECT_TRUE(std::regex_search(pg.out, tps_last)) << pg.out;
    EXPECT_TRUE(std::regex_search(lab.out, tps_last)) << lab.out;
    EXPECT_EQ(lab.out.find("percentiles"), std::string::npos) << lab.out;

    const auto asked = run_drop_in(true, {"-n", "-S", "-t", "20", "-c", "2", "--percentiles"});
    ASSERT_EQ(asked.exit_code, 0) << support::describe(asked);
    const auto block = asked.out.find("latency percentiles (pglab, ");
    ASSERT_NE(block, std::string::npos) << asked.out;
    EXPECT_GT(block, asked.out.find("tps = ")) << "the block follows pgbench's report";
    EXPECT_TRUE(std::regex_search(asked.out, std::regex(R"(\n p99 = [0-9.]+ ms\n)"))) << asked.out;
}

class DropInSignalTest : public DropInTest, public ::testing::WithParamInterface<int> {};

TEST_P(DropInSignalTest, BothDieByTheSignalWithTheBannerOnStdout) {
    const int sig = GetParam();
    const std::vector<std::string> args = {"-n", "-S", "-T", "600", "-c", "2"};
    for (const bool pglab : {false, true}) {
        SCOPED_TRACE(pglab ? "pglab" : "pgbench");
        const std::string name = pglab ? "pglab" : "pgbench";
        // 600 s to go: ending long before that is the signal obeyed.
        const auto status = signalled_when_running(pglab, name, args, sig);
        ASSERT_TRUE(status) << "still running long after the signal";
        EXPECT_EQ(status->signal, sig) << status->describe();
        EXPECT_EQ(status->code, -1) << status->describe();
    }
    // stdout: the banner, nothing after it (pglab's report of the partial run is on stderr).
    EXPECT_EQ(read_file(out_path("pglab")), read_file(out_path("pgbench")));
    EXPECT_NE(read_file(err_path("pglab")).find("run interrupted by signal"), std::string::npos)
        << read_file(err_path("pglab"));
}

INSTANTIATE_TEST_SUITE_P(Signals, DropInSignalTest, ::testing::Values(SIGINT, SIGTERM),
                         [](const ::testing::TestParamInfo<int>& p) {
                             return p.param == SIGINT ? std::string("SIGINT")
                                                      : std::string("SIGTERM");
                         });

TEST_F(DropInTest, ASignalStopsARunWhoseClientsAllSleep) {
    // No client has news for 2,000 s (3,600 would overflow pgbench's int): the process-directed
    // signal lands on the main thread, and pglab's worker, waiting without a timeout, must still
    // notice it (its tick).
    const fs::path script = m_dir / "sleepy.sql";
    std::ofstream(script) << "SELECT 1;\n\\sleep 2000 s\n";
    const std::vector<std::string> args = {"-n", "-f", script.string(), "-t", "2", "-c", "2"};
    for (const bool pglab : {false, true}) {
        SCOPED_TRACE(pglab ? "pglab" : "pgbench");
        const std::string name = pglab ? "pglab" : "pgbench";
        const auto status = signalled_when_running(pglab, name, args, SIGINT);
        ASSERT_TRUE(status) << "still running long after the signal";
        EXPECT_EQ(status->signal, SIGINT) << status->describe();
    }
    EXPECT_EQ(read_file(out_path("pglab")), read_file(out_path("pgbench")));
}

/// What -i says on stderr that does not depend on timing: no progress lines, no CONTEXT line
/// (the COPY line the server had reached), the program named pgbench.
std::string init_messages(const std::string& err) {
    std::istringstream in(err);
    std::string kept;
    for (std::string line; std::getline(in, line);) {
        if (line.find(" tuples (") != std::string::npos || line.rfind("CONTEXT:", 0) == 0) {
            continue;
        }
        if (line.rfind("pglab: ", 0) == 0) {
            line.replace(0, 5, "pgbench");
        }
        kept += line + "\n";
    }
    return kept;
}

class DropInInitSignalTest : public DropInTest, public ::testing::WithParamInterface<int> {};

TEST_P(DropInInitSignalTest, InitStopsAsPgbenchsDoes) {
    // SIGINT: pgbench's cancel handler sends a cancel request, the COPY fails, exit 1. SIGTERM:
    // no handler, death by the signal.
    const int sig = GetParam();
    for (const bool pglab : {false, true}) {
        SCOPED_TRACE(pglab ? "pglab" : "pgbench");
        const std::string name = pglab ? "pglab" : "pgbench";
        const std::string db = "drop_in_init_" + name;
        support::run_sql("drop database if exists " + db);
        support::run_sql("create database " + db);
        auto child = start(pglab, name, {"-i", "-s", "30", db});
        ASSERT_TRUE(child) << child.error().message;
        ASSERT_TRUE(support::wait_for_sql(
            support::test_server(),
            "EXISTS (SELECT FROM pg_stat_activity WHERE state = 'active' AND query ILIKE "
            "'copy pgbench_accounts%')"))
            << "the COPY never started: " << read_file(err_path(name));
        child->send_signal(sig);
        const auto status = child->wait(support::k_event_timeout);
        ASSERT_TRUE(status) << "still running long after the signal";
        if (sig == SIGINT) {
            EXPECT_EQ(status->code, 1) << status->describe();
        } else {
            EXPECT_EQ(status->signal, sig) << status->describe();
        }
    }
    EXPECT_EQ(read_file(out_path("pglab")), read_file(out_path("pgbench")));
    EXPECT_EQ(init_messages(read_file(err_path("pglab"))),
              init_messages(read_file(err_path("pgbench"))));
    if (sig == SIGINT) {
        EXPECT_NE(read_file(err_path("pglab")).find("Cancel request sent\n"), std::string::npos)
            << read_file(err_path("pglab"));
    }
}

INSTANTIATE_TEST_SUITE_P(Signals, DropInInitSignalTest, ::testing::Values(SIGINT, SIGTERM),
                         [](const ::testing::TestParamInfo<int>& p) {
                             return p.param == SIGINT ? std::string("SIGINT")
                                                      : std::string("SIGTERM");
                         });

TEST_F(DropInTest, AnInheritedIgnoredSigintStaysIgnored) {
    // `cmd &` in a non-interactive shell starts cmd with SIGINT ignored: it must not stop it.
    // The signal is sent once both clients run (an event), so the run only has to outlast
    // that; a light rate leaves the machine's cores to the cases running beside it.
    const std::vector<std::string> args = {"-n", "-S", "-T", "4", "-R", "200", "-c", "2"};
    for (const bool pglab : {false, true}) {
        SCOPED_TRACE(pglab ? "pglab" : "pgbench");
        const std::string name = pglab ? "pglab" : "pgbench";
        const auto status = signalled_when_running(pglab, name, args, SIGINT, "trap '' INT; ");
        ASSERT_TRUE(status);
        EXPECT_TRUE(status->success()) << status->describe() << read_file(err_path(name));
        const std::string out = read_file(out_path(name));
        EXPECT_NE(out.find("duration: 4 s"), std::string::npos) << out;
        EXPECT_NE(out.find("tps = "), std::string::npos) << out;
    }
}

TEST_F(DropInTest, ATransactionRunningAtTheEndOfADurationFinishesAndCounts) {
    // -T stops new transactions only: one still running then finishes and is counted, however
    // long it takes. (pglab once gave up on it 5 s after the end; on a saturated server a
    // transaction in flight can take longer than that.)
    const fs::path script = m_dir / "long.sql";
    std::ofstream(script) << "SELECT pg_sleep(7);\n";
    for (const bool pglab : {false, true}) {
        SCOPED_TRACE(pglab ? "pglab" : "pgbench");
        const auto r = run_drop_in(pglab, {"-n", "-f", script.string(), "-T", "1", "-c", "1"});
        ASSERT_EQ(r.exit_code, 0) << support::describe(r);
        EXPECT_NE(r.out.find("number of transactions actually processed: 1\n"), std::string::npos)
            << r.out;
        EXPECT_EQ(r.err.find("aborted"), std::string::npos) << r.err;
    }
}

TEST_F(DropInTest, SkippedTransactionsLogALagOfZero) {
    // Each transaction sleeps 10 ms against a schedule of 1000 per second: the schedule runs
    // ahead at once and most transactions are skipped (-L 1 ms).
    const fs::path script = m_dir / "sleep.sql";
    std::ofstream(script) << "\\sleep 10 ms\n";
    for (const bool pglab : {false, true}) {
        SCOPED_TRACE(pglab ? "pglab" : "pgbench");
        const fs::path dir = m_dir / (pglab ? "pglab" : "pgbench");
        fs::create_directories(dir);
        const auto r = run_drop_in(
            pglab,
            {"-n", "-f", script.string(), "-t", "200", "-c", "1", "-R", "1000", "-L", "1", "-l"},
            dir);
        ASSERT_EQ(r.exit_code, 0) << support::describe(r);
        int skipped = 0;
        for (const auto& e : fs::directory_iterator(dir)) {
            std::istringstream lines(read_file(e.path()));
            for (std::string line; std::getline(lines, line);) {
                std::istringstream words(line);
                std::vector<std::string> w;
                for (std::string x; words >> x;) {
                    w.push_back(x);
                }
                // client tx latency|skipped script epoch usec lag
                ASSERT_EQ(w.size(), 7u) << line;
                if (w[2] == "skipped") {
                    ++skipped;
                    EXPECT_EQ(w[6], "0") << line;
                }
            }
        }
        EXPECT_GT(skipped, 100) << "the schedule never ran ahead";
    }
}

TEST_F(DropInTest, TimeCountsFromBeforeTheConnections) {
    // Every backend waits 2 s before authentication: connecting outlasts `-T 1`, and pgbench
    // runs no transaction then (its timer starts before the connections). pglab connects its
    // clients concurrently, but its -T starts at the same moment.
    support::run_sql("alter system set pre_auth_delay = 2");
    support::run_sql("select pg_reload_conf()");
    ASSERT_TRUE(support::wait_for_sql(support::test_server(),
                                      "select current_setting('pre_auth_delay') = '2s'"));
    const std::vector<std::string> args = {"-n", "-S", "-T", "1", "-c", "2"};
    const auto pg = run_drop_in(false, args);
    const auto lab = run_drop_in(true, args);
    support::run_sql("alter system reset pre_auth_delay");
    support::run_sql("select pg_reload_conf()");
    EXPECT_TRUE(support::same_behaviour(pg, lab));
    for (const auto* r : {&pg, &lab}) {
        EXPECT_NE(r->out.find("number of transactions actually processed: 0\n"), std::string::npos)
            << support::describe(*r);
    }
}

/// pgbench and pglab run `script_text` with `-T 1 -R 20 -P 1 --random-seed=7` (the same throttle
/// schedule whatever the script) and must print the same lines, progress lines included.
std::pair<CommandResult, CommandResult> throttled_second(const fs::path& script,
                                                         const std::string& script_text) {
    std::ofstream(script) << script_text;
    const std::vector<std::string> args = {"-n", "-f", script.string(),  "-T", "1", "-R", "20",
                                           "-P", "1",  "--random-seed=7"};
    auto pg = run_drop_in(false, args);
    auto lab = run_drop_in(true, args);
    support::CompareOptions keep_progress;
    keep_progress.ignore_progress = false;
    EXPECT_TRUE(support::same_behaviour(pg, lab, keep_progress));
    return {std::move(pg), std::move(lab)};
}

TEST_F(DropInTest, NoProgressLineAfterTheLastTransactionOfAThrottledRun) {
    // `-T 1 -R 20 -P 1`: with this seed the last transaction is scheduled well before the end of
    // the second, and the run ends then, before the first progress report is due. Its
    // transactions only set a variable: with -S, `make soak` saw one held up 400 ms by the loaded
    // server still running at 1 s, which rightly got a report (next case); without the server in
    // them, nothing makes a transaction that late.
    const auto [pg, lab] =
        throttled_second(m_dir / "set-only.sql", "\\set aid random(1, 100000)\n");
    EXPECT_EQ(lab.err.find("progress:"), std::string::npos) << lab.err;
}

TEST_F(DropInTest, AProgressLineWhileALateTransactionStillRuns) {
    // The window that load opened in the case above, held open on demand: transactions of
    // 300 ms against a schedule of 20 a second run back to back, so the one begun last, before
    // the end of the second, is still running when the report is due at 1 s. pgbench reports
    // it, and so does pglab.
    const auto [pg, lab] = throttled_second(m_dir / "late.sql", "SELECT pg_sleep(0.3);\n");
    for (const auto* r : {&pg, &lab}) {
        EXPECT_NE(r->err.find("progress: "), std::string::npos) << support::describe(*r);
    }
}

TEST_F(DropInTest, DashDNamesTheDatabaseFrom17) {
    // pgbench 17 and 18 read `-d mydb` as the database; up to 16 it is --debug, and mydb the
    // positional name. Either way the run connects to mydb; only 16 prints debug lines.
    for (const char* version : {"16", "18"}) {
        SCOPED_TRACE(version);
        std::vector<std::string> argv = {
            support::pglab_binary(), "bench", "-n", "-S", "-t", "1", "-d", k_drop_in_db};
        auto env = support::server_env("postgres");
        env.emplace_back("PGLAB_PGBENCH_VERSION", version);
        const auto r = support::run_command(argv, env);
        ASSERT_EQ(r.exit_code, 0) << support::describe(r);
        const bool debug = r.err.find("pghost:") != std::string::npos;
        EXPECT_EQ(debug, std::string(version) == "16") << r.err;
        const std::string banner_release = std::string("pgbench (") + version;
        EXPECT_EQ(r.out.rfind(banner_release, 0), 0u) << r.out;
    }
}

} // namespace
