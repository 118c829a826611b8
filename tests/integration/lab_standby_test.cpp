// `pglab run` with a streaming replica (`standby_of`): the standby is made by pg_basebackup of its
// throwaway primary and runs on its own socket, steps reach either server, the primary's measured
// steps carry the replication_lag probe, and both clusters are removed.
#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabStandby = support::LabTestDir;

constexpr const char* k_standby_experiment = R"toml(name = "lab-standby"

[servers.primary]
version = "15"
settings = { wal_keep_size = "64MB" }

[servers.standby]
version = "15"
standby_of = "primary"
settings = { hot_standby_feedback = true }

[matrix]
clients = 1
scale = 1
duration = 1

[[steps]]
type = "sql"
server = "standby"
sql = "SELECT pg_is_in_recovery()::text || ' ' || current_setting('hot_standby_feedback')"
expect = "true on"

[[steps]]
type = "init"
options = ["--quiet"]

[[steps]]
type = "bench"
options = ["--jobs=1"]

[[steps]]
type = "timed-sql"
sql = "VACUUM pgbench_accounts"
)toml";

TEST_F(LabStandby, StreamingReplicaOfAThrowawayPrimary) {
    const fs::path file = write("standby.toml", k_standby_experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u);
    const auto& l = ls[0];
    EXPECT_EQ(l["status"], "ok") << l.dump();
    EXPECT_EQ(l["server"]["name"], "primary");
    const auto& steps = l["steps"];
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_EQ(steps[0]["server"], "standby");
    EXPECT_EQ(steps[0]["status"], "ok") << steps[0].dump();
    for (const std::size_t i : {2u, 3u}) {
        SCOPED_TRACE(i);
        EXPECT_EQ(steps[i]["server"], "primary");
        EXPECT_EQ(steps[i]["status"], "ok") << steps[i].dump();
        const auto& rep = steps[i]["replication"];
        ASSERT_TRUE(rep.is_object()) << steps[i].dump();
        EXPECT_EQ(rep["standbys"], 1) << rep;
        EXPECT_TRUE(rep["bytes_behind"].is_number()) << rep;
        EXPECT_GE(rep["bytes_behind"].get<long long>(), 0) << rep;
        EXPECT_TRUE(rep.contains("replay_lag_ms")) << rep;
    }
    EXPECT_FALSE(steps[0].contains("replication")); // a sql step is not measured
    EXPECT_TRUE(fs::exists(results / "servers/primary/1-postgresql.log"));
    EXPECT_TRUE(fs::exists(results / "servers/standby/1-postgresql.log"));
    expect_clean();
}

} // namespace
