// The test fixtures themselves: the shared test server, clients pointed at it, a cluster's
// lifecycle, cleanup after a signal, and the pgbench-vs-pglab comparison helpers.
#include "lab/server/throwaway_cluster.hpp"
#include "support/compat.hpp"
#include "support/files.hpp"
#include "support/processes.hpp"
#include "support/run_command.hpp"
#include "support/test_server.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

namespace {

namespace fs = std::filesystem;
namespace server = pglab::lab::server;

TEST(FixtureTest, TestServerAnswersSql) {
    EXPECT_EQ(support::run_sql("SELECT 6 * 7"), "42\n");
    EXPECT_EQ(support::run_sql("SHOW fsync"), "off\n");
}

TEST(FixtureTest, ClientsFindTheServerThroughTheEnvironment) {
    const server::ThrowawayCluster& s = support::test_server();
    const support::CommandResult r =
        support::run_command({s.installation().client_tool("psql").string(), "-X", "-A", "-t", "-c",
                              "SELECT current_user, current_database()"},
                             support::server_env());
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_EQ(r.out, "postgres|postgres\n");
}

TEST(FixtureTest, PgbenchRunsAgainstTheTestServer) {
    support::run_sql("CREATE DATABASE fixture_bench");
    const support::EnvOverrides env = support::server_env("fixture_bench");
    const support::CommandResult init =
        support::run_command({support::pgbench_binary(), "-i", "-s", "1", "-q"}, env);
    ASSERT_EQ(init.exit_code, 0) << support::describe(init);
    const support::CommandResult run =
        support::run_command({support::pgbench_binary(), "-t", "20", "-c", "2", "-n"}, env);
    ASSERT_EQ(run.exit_code, 0) << support::describe(run);
    EXPECT_NE(run.out.find("number of transactions actually processed: 40/40"), std::string::npos)
        << run.out;
}

TEST(FixtureTest, ClusterStartRestartRemove) {
    auto c = server::ThrowawayCluster::create({});
    ASSERT_TRUE(c.has_value()) << c.error().message << "\n" << c.error().detail;
    const support::CommandResult r = support::run_command(
        {c->installation().client_tool("psql").string(), "-X", "-A", "-t", "-c", "SELECT 1"},
        c->client_env());
    EXPECT_EQ(r.out, "1\n") << support::describe(r);
    const pid_t first = c->server_pid();
    ASSERT_TRUE(c->restart().has_value());
    EXPECT_TRUE(support::wait_pid_gone(first));
    EXPECT_EQ(*c->psql("SELECT 2"), "2\n");

    const fs::path base = c->base_dir();
    const pid_t second = c->server_pid();
    ASSERT_TRUE(c->remove().has_value());
    EXPECT_FALSE(fs::exists(base));
    EXPECT_TRUE(support::wait_pid_gone(second));
    EXPECT_TRUE(support::wait_no_process_in(base));
}

TEST(FixtureTest, StopModesAreThoseOfPgCtl) {
    auto c = server::ThrowawayCluster::create({});
    ASSERT_TRUE(c.has_value()) << c.error().message << "\n" << c.error().detail;
    ASSERT_TRUE(c->psql("CREATE TABLE t AS SELECT 1 AS x").has_value());

    // fast: a shutdown checkpoint, and the next start finds a cleanly shut down cluster
    ASSERT_TRUE(c->stop_server(server::ShutdownMode::fast).has_value());
    EXPECT_NE(support::read_file(c->log_path()).find("database system is shut down"),
              std::string::npos);
    ASSERT_TRUE(c->start_server().has_value());
    EXPECT_EQ(support::read_file(c->log_path()).find("was not properly shut down"),
              std::string::npos);

    // immediate: no checkpoint, the next start runs crash recovery; the data is still there
    ASSERT_TRUE(c->stop_server(server::ShutdownMode::immediate).has_value());
    EXPECT_NE(support::read_file(c->log_path()).find("received immediate shutdown request"),
              std::string::npos);
    ASSERT_TRUE(c->start_server().has_value());
    EXPECT_NE(support::read_file(c->log_path()).find("was not properly shut down"),
              std::string::npos);
    EXPECT_EQ(*c->psql("SELECT x FROM t"), "1\n");

    // smart: waits for sessions (there are none) and shuts down cleanly
    ASSERT_TRUE(c->restart(server::ShutdownMode::smart).has_value());
    EXPECT_NE(support::read_file(c->log_path()).find("received smart shutdown request"),
              std::string::npos);
    EXPECT_EQ(*c->psql("SELECT x FROM t"), "1\n");
}

TEST(FixtureTest, SigintToTheOwnerLeavesNothingBehind) {
    support::test_server(); // started before the fork: the holder must leave it alone
    char parent_templ[] = "/tmp/pgl-fixture-XXXXXX";
    const fs::path parent = ::mkdtemp(parent_templ);
    fs::permissions(parent, fs::perms::all);
    int fds[2];
    ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
    const pid_t holder = ::fork();
    if (holder == 0) {
        server::ClusterOptions o;
        o.parent_dir = parent;
        auto c = server::ThrowawayCluster::create(o);
        const std::string msg = c ? c->base_dir().string() : std::string();
        (void)!::write(fds[1], msg.data(), msg.size());
        ::close(fds[1]);
        for (;;) {
            ::pause();
        }
    }
    ::close(fds[1]);
    char buf[512];
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    ::close(fds[0]);
    ASSERT_GT(n, 0) << "the holder could not start a cluster";
    const fs::path base(std::string(buf, static_cast<size_t>(n)));
    ASSERT_FALSE(support::processes_in(base).empty());

    ::kill(holder, SIGINT);
    int status = 0;
    ASSERT_EQ(::waitpid(holder, &status, 0), holder);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
    EXPECT_TRUE(support::wait_no_process_in(base));
    EXPECT_FALSE(fs::exists(base));
    fs::remove_all(parent);
    EXPECT_EQ(support::run_sql("SELECT 1"), "1\n");
}

TEST(CompatHelpersTest, StdoutKeys) {
    EXPECT_EQ(support::stdout_keys("transaction type: <builtin: TPC-B (sort of)>\n"
                                   "latency average = 1.2 ms\n\n"
                                   "starting vacuum...end.\n"),
              (std::vector<std::string>{"transaction type", "latency average",
                                        "starting vacuum...end."}));
}

TEST(CompatHelpersTest, NormaliseStderr) {
    EXPECT_EQ(support::normalise_stderr("pgbench: error: bad\n"
                                        "progress: 1.0 s, 10.0 tps\n"
                                        "done in 0.27 s (drop tables 0.00 s)\n"),
              "error: bad\ndone in <num> s (drop tables <num> s)\n");
    EXPECT_EQ(support::normalise_stderr("pglab: hint: Try \"pglab bench --help\" for more.\n"),
              "hint: Try \"pgbench --help\" for more.\n");
}

TEST(CompatHelpersTest, SameBehaviour) {
    support::CommandResult a{1, 0, "a: 1\nb = 2\n", "pgbench: error: x\n", false};
    support::CommandResult b{1, 0, "a: 9\nb = 3\nextra: 1\n", "pglab: error: x\n", false};
    EXPECT_FALSE(support::same_behaviour(a, b)) << "extra stdout lines differ by default";
    support::CompareOptions lenient;
    lenient.allow_extra_trailing_stdout = true;
    EXPECT_TRUE(support::same_behaviour(a, b, lenient));
    b.exit_code = 2;
    EXPECT_FALSE(support::same_behaviour(a, b, lenient));
}

TEST(CompatHelpersTest, PgbenchAgreesWithItself) {
    const support::CommandResult a =
        support::run_command({support::pgbench_binary(), "--no-such-option"});
    const support::CommandResult b =
        support::run_command({support::pgbench_binary(), "--no-such-option"});
    EXPECT_EQ(a.exit_code, 1);
    EXPECT_TRUE(support::same_behaviour(a, b));
}

} // namespace
