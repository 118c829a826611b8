// `pglab run` against an existing server (`conninfo`): a throwaway cluster made by the test plays
// the existing server. Steps and probes run against it, user-context settings go with each
// connection, settings needing a restart or a reload are refused before anything starts, and the
// password of the conninfo appears nowhere pglab writes (the copy of the file has it masked).
#include "lab/server/throwaway_cluster.hpp"
#include "pg/connection.hpp"
#include "support/background.hpp"
#include "support/test_server.hpp"
#include "support/wait.hpp"

#include <fmt/format.h>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;
namespace server = pglab::lab::server;

constexpr const char* k_secret = "s3cret-Pa55word";

class LabExisting : public support::LabTestDir {
protected:
    void SetUp() override {
        LabTestDir::SetUp();
        auto c = server::ThrowawayCluster::create(support::cluster_options());
        ASSERT_TRUE(c) << c.error().message;
        m_server.emplace(std::move(*c));
    }

    void TearDown() override {
        m_server.reset();
        LabTestDir::TearDown();
    }

    std::string conninfo(int port = 0) const {
        return fmt::format("host={} port={} user={} dbname=postgres password={}",
                           m_server->socket_dir().string(), port != 0 ? port : m_server->port(),
                           m_server->user(), k_secret);
    }

    /// A user's session in `dbname`, busy with a statement for ten minutes.
    pglab::pg::Connection busy_session(const std::string& dbname) const {
        pglab::pg::ConnParams params;
        params.host = m_server->socket_dir().string();
        params.port = std::to_string(m_server->port());
        params.user = m_server->user();
        params.dbname = dbname;
        params.application_name = "a user's session";
        auto conn = pglab::pg::Connection::connect(params);
        EXPECT_TRUE(conn) << conn.error().message;
        EXPECT_TRUE(conn->send_query("SELECT pg_sleep(600)"));
        return std::move(*conn);
    }

    std::optional<server::ThrowawayCluster> m_server;
};

TEST_F(LabExisting, StepsProbesAndSettingsOnAnExistingServer) {
    const std::string experiment = fmt::format(R"toml(name = "lab-existing"

destructive_ok = true

[servers.existing]
conninfo = "{}"
settings = {{ work_mem = "5MB" }}

[matrix]
settings.enable_seqscan = ["on", "off"]
clients = 1
scale = 1
duration = 1

[[steps]]
type = "init"
once = true
options = ["--quiet"]

[[steps]]
type = "bench"
options = ["--jobs=1"]

[[steps]]
type = "sql"
sql = "SELECT current_setting('work_mem') || ' ' || current_setting('enable_seqscan')"
expect = "5MB ${{settings.enable_seqscan}}"

[[steps]]
type = "timed-sql"
sql = "VACUUM pgbench_accounts"
)toml",
                                               conninfo());
    const fs::path file = write("existing.toml", experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_EQ(r.err.find(k_secret), std::string::npos) << r.err;

    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 2u);
    for (std::size_t i = 0; i < ls.size(); ++i) {
        SCOPED_TRACE(i);
        const auto& l = ls[i];
        EXPECT_EQ(l["status"], "ok") << l.dump();
        EXPECT_EQ(l["server"]["name"], "existing");
        EXPECT_TRUE(l["server"]["bin_dir"].is_null());
        EXPECT_EQ(
            l["server"]["version"].get<std::string>().rfind(m_server->installation().version, 0),
            0u)
            << l["server"]["version"]; // "15.20 (Debian 15.20-0+deb12u1)"
        EXPECT_EQ(l["server"]["settings"]["work_mem"], "5MB");
        EXPECT_EQ(l["server"]["settings"]["enable_seqscan"],
                  l["values"]["settings.enable_seqscan"]);
        EXPECT_EQ(l["timings"]["restarts"], 0);
        const auto& steps = l["steps"];
        ASSERT_EQ(steps.size(), 4u);
        EXPECT_EQ(steps[0]["status"], i == 0 ? "ok" : "skipped");
        EXPECT_EQ(steps[1]["status"], "ok") << steps[1].dump();
        EXPECT_GT(steps[1]["bench"]["totals"]["transactions"].get<long long>(), 0);
        EXPECT_GT(steps[1]["probes"].value("wal.bytes", 0.0), 0.0) << steps[1].dump();
        EXPECT_EQ(steps[2]["status"], "ok") << steps[2].dump();
        EXPECT_EQ(steps[3]["status"], "ok") << steps[3].dump();
        EXPECT_TRUE(steps[3]["probes"].is_object());
    }
    // The password: nowhere, not even in the copy of the experiment file (masked there).
    EXPECT_EQ(all_text(results).find(k_secret), std::string::npos);
    EXPECT_NE(read_file(results / "experiment.toml").find("password=********"), std::string::npos);
    // pglab leaves a server it did not create running, and made no cluster of its own.
    EXPECT_TRUE(m_server->running());
    const auto one = m_server->psql("SELECT 1");
    EXPECT_TRUE(one && *one == "1\n");
    EXPECT_FALSE(fs::exists(results / "servers"));
    expect_clean();
}

// On a server pglab did not create, settle waits only for sessions of the experiment's database
// (and pglab's own), and says on the terminal what it waits for, so that a wait on a user's
// session is seen and can be ended (issue 62: a 2 s run took 62 s, in silence).
TEST_F(LabExisting, SettleWaitsOnlyForTheExperimentsDatabaseAndSaysWhatItWaitsFor) {
    ASSERT_TRUE(m_server->psql("CREATE DATABASE other"));
    const fs::path file = write("settle.toml", fmt::format(R"toml(name = "settle-existing"

[servers.existing]
conninfo = "{}"

[[steps]]
type = "sql"
sql = "SELECT 1"
)toml",
                                                           conninfo()));
    // A user's session in another database: not the experiment's business.
    const auto elsewhere = busy_session("other");
    const auto r = run_experiment(file, m_dir / "elsewhere");
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    ASSERT_EQ(lines(m_dir / "elsewhere").size(), 1U);
    EXPECT_EQ(lines(m_dir / "elsewhere")[0]["settle"]["settled"], true);
    EXPECT_EQ(r.err.find("settling server"), std::string::npos) << r.err;

    // One in the experiment's database: waited for, and named every 5 s until it ends.
    const auto here = busy_session("postgres");
    const fs::path err = m_dir / "err.txt";
    support::Background pglab(
        {support::pglab_binary(), "run", file.string(), "--results", (m_dir / "here").string()},
        m_tmp, err);
    const std::string said = fmt::format(
        "settling server \"existing\" before run 0: waiting up to 60 s for 1 other active "
        "session; the first: pid {} (active ",
        here.backend_pid());
    EXPECT_TRUE(support::wait_until([&] { return read_file(err).find(said) != std::string::npos; }))
        << read_file(err);
    EXPECT_NE(read_file(err).find("SELECT pg_sleep(600) (settle = false in the file skips "
                                  "settling)"),
              std::string::npos)
        << read_file(err);
    ASSERT_TRUE(m_server->psql(fmt::format("SELECT pg_cancel_backend({})", here.backend_pid())));
    const int status = pglab.wait();
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status << read_file(err);
    ASSERT_EQ(lines(m_dir / "here").size(), 1U);
    EXPECT_EQ(lines(m_dir / "here")[0]["settle"]["settled"], true);
    expect_clean();
}

// An init step drops the pgbench tables of the database it runs in: on a server pglab did not
// create, the run asks for the user's yes first (--yes, or destructive_ok = true in the file),
// and --dry-run says so beside the servers and what each step does there.
TEST_F(LabExisting, AStepThatDropsTablesOnAnExistingServerWaitsForTheUsersYes) {
    ASSERT_TRUE(m_server->psql("CREATE TABLE pgbench_branches (mine int); "
                               "INSERT INTO pgbench_branches VALUES (42)"));
    const fs::path file = write("init.toml", fmt::format(R"toml(name = "init-existing"

[servers.existing]
conninfo = "{}"

[[steps]]
type = "init"
options = ["--quiet"]
)toml",
                                                         conninfo()));
    const std::string said =
        file.string()
        + ":6:1: init step \"0:init\" drops and creates again pgbench_accounts, "
          "pgbench_branches, pgbench_history and pgbench_tellers in dbname=postgres on server "
          "\"existing\", which pglab did not create";
    const auto refused = run_experiment(file, m_dir / "refused");
    EXPECT_EQ(refused.exit_code, 1) << support::describe(refused);
    EXPECT_NE(refused.err.find(said), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("run again with --yes, or put destructive_ok = true"),
              std::string::npos)
        << refused.err;
    EXPECT_FALSE(fs::exists(m_dir / "refused"));
    EXPECT_EQ(*m_server->psql("SELECT mine FROM pgbench_branches"), "42\n");

    const auto dry =
        support::run_command({support::pglab_binary(), "run", "--dry-run", file.string()}, env());
    EXPECT_EQ(dry.exit_code, 0) << support::describe(dry);
    EXPECT_NE(dry.out.find("server existing: existing, conninfo \"host="), std::string::npos)
        << dry.out;
    EXPECT_NE(dry.out.find("password=********\" (pglab neither starts nor stops it)"),
              std::string::npos)
        << dry.out;
    EXPECT_NE(dry.out.find("step 0 (init) on existing server existing: drops and creates again "
                           "pgbench_accounts, pgbench_branches, pgbench_history and "
                           "pgbench_tellers in dbname=postgres; the run asks for --yes first"),
              std::string::npos)
        << dry.out;
    EXPECT_EQ(dry.out.find(k_secret), std::string::npos);

    const auto yes = support::run_command({support::pglab_binary(), "run", file.string(),
                                           "--results", (m_dir / "yes").string(), "--yes"},
                                          env());
    EXPECT_EQ(yes.exit_code, 0) << support::describe(yes);
    EXPECT_EQ(*m_server->psql("SELECT count(*) FROM pgbench_branches"), "1\n");
}

TEST_F(LabExisting, SettingsNeedingRestartOrReloadAreRefusedBeforeAnything) {
    const fs::path results = m_dir / "results";

    struct Case {
        std::string setting;
        std::string message;
        std::string hint;
    };

    for (const Case& c :
         {Case{"shared_buffers = \"1GB\"", "needs a restart", "restart it yourself"},
          Case{"checkpoint_timeout = \"10min\"", "sighup", "ALTER SYSTEM SET"}}) {
        SCOPED_TRACE(c.setting);
        const fs::path file =
            write("refused.toml", fmt::format("[servers.existing]\nconninfo = \"{}\"\n\n"
                                              "[servers.existing.settings]\n{}\n\n"
                                              "[[steps]]\ntype = \"bench\"\n",
                                              conninfo(), c.setting));
        const auto r = run_experiment(file, results);
        EXPECT_EQ(r.exit_code, 1) << support::describe(r);
        EXPECT_NE(r.err.find(file.string() + ":5:1: "), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(c.hint), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find(k_secret), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(results));
    }
    // A server that cannot be reached: the conninfo is shown with its password hidden.
    const fs::path file = write("unreachable.toml", fmt::format("[servers.existing]\nconninfo = "
                                                                "\"{}\"\n\n[[steps]]\ntype = "
                                                                "\"bench\"\n",
                                                                conninfo(1)));
    const auto r = run_experiment(file, results);
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_NE(r.err.find(file.string() + ":1:1: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("password=********"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(k_secret), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(results));
    expect_clean();
}

} // namespace
