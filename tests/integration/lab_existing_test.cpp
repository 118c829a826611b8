// `pglab run` against an existing server (`conninfo`): a throwaway cluster made by the test plays
// the existing server. Steps and probes run against it, user-context settings go with each
// connection, settings needing a restart or a reload are refused before anything starts, and the
// password of the conninfo appears nowhere pglab writes (the copy of the file has it masked).
#include "lab/server/throwaway_cluster.hpp"
#include "support/test_server.hpp"

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

    std::optional<server::ThrowawayCluster> m_server;
};

TEST_F(LabExisting, StepsProbesAndSettingsOnAnExistingServer) {
    const std::string experiment = fmt::format(R"toml(name = "lab-existing"

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
