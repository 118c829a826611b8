// pgbench and pglab bench run the builtin workloads with the same command lines against the
// same server: exit codes, report lines, transaction counts and the data they leave must agree.
#include "support/compat.hpp"
#include "support/run_command.hpp"
#include "support/test_server.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

using support::CommandResult;

CommandResult run_builtin(bool pglab, const std::vector<std::string>& args,
                          const support::EnvOverrides& extra_env = {}) {
    std::vector<std::string> argv = support::bench_program(pglab);
    argv.insert(argv.end(), args.begin(), args.end());
    auto env = support::server_env();
    env.insert(env.end(), extra_env.begin(), extra_env.end());
    return support::run_command(argv, env);
}

/// The number N of "number of transactions actually processed: N/M" (or N in -T mode).
long long processed(const std::string& out) {
    std::smatch m;
    static const std::regex re("number of transactions actually processed: ([0-9]+)");
    if (std::regex_search(out, m, re)) {
        return std::stoll(m[1]);
    }
    return -1;
}

class BenchRunCompat : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        auto r = run_builtin(false, {"-i", "-s", "2", "-q"});
        ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    }

    /// Runs both programs with `args` and checks that users see the same thing.
    void expect_same(const std::vector<std::string>& args,
                     const support::CompareOptions& opts = {}) {
        const CommandResult p = run_builtin(false, args);
        const CommandResult l = run_builtin(true, args);
        EXPECT_TRUE(support::same_behaviour(p, l, opts));
        EXPECT_EQ(processed(p.out), processed(l.out)) << support::describe(l);
    }

    /// Fresh tables: zero balances and an empty history, so that the invariant can be checked.
    static void reinitialise() {
        auto r = run_builtin(false, {"-i", "-s", "2", "-q"});
        ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    }

    /// The TPC-B invariant after runs on fresh tables without -n's opposite (the pre-run vacuum
    /// truncates the history): every delta went to exactly one account, teller and branch.
    static void expect_tpcb_invariant() {
        const std::string sums = support::run_sql(
            "select (select coalesce(sum(abalance),0) from pgbench_accounts) || ' ' || "
            "(select coalesce(sum(bbalance),0) from pgbench_branches) || ' ' || "
            "(select coalesce(sum(tbalance),0) from pgbench_tellers) || ' ' || "
            "(select coalesce(sum(delta),0) from pgbench_history)");
        std::istringstream in(sums);
        long long a = 0, b = 0, t = 0, h = 0;
        in >> a >> b >> t >> h;
        EXPECT_EQ(a, b) << sums;
        EXPECT_EQ(a, t) << sums;
        EXPECT_EQ(a, h) << sums;
    }
};

TEST_F(BenchRunCompat, DefaultTpcb) {
    expect_same({"-t", "20", "-c", "2"});
    reinitialise();
    expect_same({"-t", "20", "-c", "3", "-j", "3", "-n"});
    expect_tpcb_invariant();
}

TEST_F(BenchRunCompat, SelectOnlyPreparedThreads) {
    expect_same({"-t", "50", "-c", "4", "-j", "2", "-S", "-M", "prepared"});
}

TEST_F(BenchRunCompat, SimpleUpdateExtended) {
    expect_same({"-t", "10", "-N", "-M", "extended", "-n"});
}

TEST_F(BenchRunCompat, ConnectPerTransaction) {
    expect_same({"-t", "10", "-c", "2", "-C", "-n"});
}

TEST_F(BenchRunCompat, BuiltinPrefixWeightsAndPerCommandReport) {
    // The same seed gives the same script choices: the counts per script must agree too.
    expect_same({"-t", "10", "-b", "simple@2", "-b", "sel@3", "-r", "-n", "--random-seed=42"});
}

TEST_F(BenchRunCompat, TpcbPerCommandReportAndVacuumAll) {
    expect_same({"-t", "5", "-r", "-v"});
}

TEST_F(BenchRunCompat, ScaleIgnoredWithBuiltinWarns) {
    expect_same({"-t", "3", "-s", "7", "-n"});
}

TEST_F(BenchRunCompat, DefinesAndRandomSeed) {
    expect_same({"-t", "3", "-D", "foo=bar", "--random-seed=5432", "-n"});
}

TEST_F(BenchRunCompat, DurationWithProgress) {
    const CommandResult p = run_builtin(false, {"-T", "2", "-c", "2", "-P", "1", "-S", "-n"});
    const CommandResult l = run_builtin(true, {"-T", "2", "-c", "2", "-P", "1", "-S", "-n"});
    EXPECT_TRUE(support::same_behaviour(p, l));
    EXPECT_GT(processed(l.out), 0);
    EXPECT_NE(l.err.find("progress: 1.0 s, "), std::string::npos) << l.err;
    EXPECT_NE(l.out.find("latency stddev = "), std::string::npos) << l.out;
}

TEST_F(BenchRunCompat, DebugPrintsTheClientConversation) {
    const CommandResult l = run_builtin(true, {"-d", "-t", "2", "-c", "2", "-S", "-n"});
    ASSERT_EQ(l.exit_code, 0) << support::describe(l);
    for (const char* expected : {"pghost: ", "client 0 executing script \"<builtin: select only>\"",
                                 "client 1 executing \\set aid", "client 0 sending SELECT abalance",
                                 "client 1 receiving"}) {
        EXPECT_NE(l.err.find(expected), std::string::npos) << expected << "\n" << l.err;
    }
}

TEST_F(BenchRunCompat, DbnameAsConninfoUriAndOption) {
    const auto& server = support::test_server();
    const std::string conninfo = server.conninfo("postgres");
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"-t", "2", "-S", "-n", conninfo},
          std::vector<std::string>{"-t", "2", "-S", "-n", "--pgbench-version=17", "--dbname",
                                   "postgres"},
          std::vector<std::string>{"-t", "2", "-S", "-n", "--pgbench-version=18", "-d", "postgres"},
          std::vector<std::string>{"-t", "2", "-S", "-n",
                                   "postgresql:///postgres?host=" + server.socket_dir().string()
                                       + "&port=" + std::to_string(server.port())}}) {
        const CommandResult l = run_builtin(true, args);
        EXPECT_EQ(l.exit_code, 0) << support::describe(l);
        EXPECT_EQ(processed(l.out), 2) << l.out;
    }
}

TEST_F(BenchRunCompat, NoSuchDatabase) {
    expect_same({"-t", "1", "no-such-database"});
}

TEST_F(BenchRunCompat, RunWithoutInitialisation) {
    support::run_sql("drop database if exists empty_db");
    support::run_sql("create database empty_db");
    const CommandResult p = run_builtin(false, {"-S", "-t", "1", "empty_db"});
    const CommandResult l = run_builtin(true, {"-S", "-t", "1", "empty_db"});
    EXPECT_TRUE(support::same_behaviour(p, l));
    EXPECT_EQ(l.exit_code, 1);
    EXPECT_NE(l.err.find("Perhaps you need to do initialization"), std::string::npos) << l.err;
}

TEST_F(BenchRunCompat, UnreachableServer) {
    const CommandResult p =
        support::run_command({support::pgbench_binary(), "-h", "/nonexistent", "-t", "1"});
    const CommandResult l =
        support::run_command({support::pglab_binary(), "bench", "-h", "/nonexistent", "-t", "1"});
    EXPECT_TRUE(support::same_behaviour(p, l));
    EXPECT_EQ(l.exit_code, 1);
    EXPECT_TRUE(l.out.empty()) << l.out;
}

} // namespace
