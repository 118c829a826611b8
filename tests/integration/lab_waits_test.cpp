// Wait sampling end to end through the pglab binary: a step with `sample_waits` records, with its
// probes, the sessions that waited during it, by wait event, averaged over the samples. One
// session holds a lock and another is blocked on it for the whole sampled step, so the lock wait
// averages exactly one session whatever the machine's speed; the sampled statement's own
// pg_sleep is seen too; and the report shows the averages in sessions.
#include "support/run_command.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabWaits = support::LabTestDir;

constexpr const char* k_waits_experiment = R"toml(name = "waits"

[sessions.holder]
[sessions.blocked]

[[steps]]
type = "sql"
sql = ["DROP TABLE IF EXISTS t", "CREATE TABLE t (id int)"]

[[steps]]
type = "sql"
session = "holder"
sql = ["BEGIN", "LOCK TABLE t"]

[[steps]]
type = "sql"
session = "blocked"
sql = "SELECT count(*) FROM t"
expect_blocked = "100ms"

[[steps]]
type = "timed-sql"
name = "sampled"
sql = "SELECT pg_sleep(0.5)"
sample_waits = "10ms"

[[steps]]
type = "sql"
session = "holder"
sql = "COMMIT"
)toml";

TEST_F(LabWaits, ASampledStepRecordsItsSessionsByWaitEvent) {
    const fs::path file = write("waits.toml", k_waits_experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u);
    nlohmann::json sampled;
    for (const auto& s : ls[0]["steps"]) {
        if (s["key"] == "sampled") {
            sampled = s;
        }
    }
    ASSERT_TRUE(sampled.contains("probes")) << ls[0].dump();
    const auto& p = sampled["probes"];
    ASSERT_TRUE(p.contains("wait.samples")) << p.dump();
    EXPECT_GE(p["wait.samples"].get<double>(), 1.0);
    // Blocked on the holder's lock from before the step to after it: in every sample.
    ASSERT_TRUE(p.contains("wait.Lock.relation")) << p.dump();
    EXPECT_DOUBLE_EQ(p["wait.Lock.relation"].get<double>(), 1.0);
    EXPECT_EQ(sampled["probe_units"].value("wait.Lock.relation", ""), "sessions");
    // The holder waits for its client inside its transaction, also in every sample.
    ASSERT_TRUE(p.contains("wait.idle_in_transaction")) << p.dump();
    EXPECT_GE(p["wait.idle_in_transaction"].get<double>(), 1.0);
    // The step's own statement sleeps on the server for most of the step.
    ASSERT_TRUE(p.contains("wait.Timeout.PgSleep")) << p.dump();
    EXPECT_GT(p["wait.Timeout.PgSleep"].get<double>(), 0.0);
    EXPECT_LE(p["wait.Timeout.PgSleep"].get<double>(), 1.0);
    ASSERT_TRUE(p.contains("host.runnable")) << p.dump();
    EXPECT_GE(p["host.runnable"].get<double>(), 0.0);
    // A step that asked for nothing has no wait values.
    for (const auto& s : ls[0]["steps"]) {
        if (s["key"] != "sampled" && s.contains("probes") && s["probes"].is_object()) {
            EXPECT_FALSE(s["probes"].contains("wait.samples")) << s.dump();
        }
    }

    const auto csv = support::run_command(
        {support::pglab_binary(), "report", results.string(), "--format", "csv", "-o", "-"}, env());
    ASSERT_EQ(csv.exit_code, 0) << support::describe(csv);
    EXPECT_NE(csv.out.find("sampled,timed-sql,probe:wait.Lock.relation,sessions,0,"),
              std::string::npos)
        << csv.out;
    expect_clean();
}

} // namespace
