// `pglab run` with `promote` steps: the failover of study S1d (primary -> standby -> cascading
// standby; the primary stops, the standby is promoted and the cascade follows its new timeline),
// the topology pglab keeps after a promotion (replication probe, the next run's standbys made
// anew), and the errors: a promote of a server that is not a standby or is an existing server is
// refused before anything starts, one of a standby already promoted or stopped fails its run,
// each with the step's file:line:column.
#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabPromote = support::LabTestDir;

/// A sql step on the cascade that waits (at most 10 s) until aid 1 has `abalance`: replication is
/// asynchronous, and polling keeps the test fast without guessing a sleep.
std::string wait_on_cascade(int abalance) {
    return fmt::format(R"toml(
[[steps]]
type = "sql"
session = "on_cascade"
sql = '''DO $$ BEGIN FOR i IN 1..1000 LOOP PERFORM 1 FROM pgbench_accounts WHERE aid = 1 AND abalance = {0}; EXIT WHEN FOUND; PERFORM pg_sleep(0.01); END LOOP; END $$'''

[[steps]]
type = "sql"
session = "on_cascade"
sql = "SELECT abalance FROM pgbench_accounts WHERE aid = 1"
expect = "{0}"
)toml",
                       abalance);
}

const std::string k_topology = R"toml(server = "primary"

[servers.primary]
version = "15"
settings = { wal_level = "replica", max_wal_senders = 4, fsync = false }

[servers.standby]
version = "15"
standby_of = "primary"

[servers.cascade]
version = "15"
standby_of = "standby"

[sessions.on_standby]
server = "standby"

[sessions.on_cascade]
server = "cascade"
)toml";

TEST_F(LabPromote, CascadeFollowsThePromotedStandbyInEveryRun) {
    // As experiments/s1d-cascading-replication.toml, twice: the second run starts from the file's
    // topology again (standby and cascade made anew from the restarted primary).
    const std::string experiment = "name = \"lab-promote\"\nrepeat = 2\norder = \"as-written\"\n"
                                   + k_topology + R"toml(
[[steps]]
type = "init"
options = ["--quiet", "--scale=1"]

[[steps]]
type = "sql"
sql = "UPDATE pgbench_accounts SET abalance = 100 WHERE aid = 1"
)toml" + wait_on_cascade(100) + R"toml(
[[steps]]
type = "timed-sql"
name = "primary-with-standby"
sql = "SELECT 1"

[[steps]]
type = "stop"
server = "primary"
mode = "immediate"

[[steps]]
type = "promote"
name = "promote"
server = "standby"

[[steps]]
type = "sql"
name = "standby-is-primary"
session = "on_standby"
sql = "SELECT pg_is_in_recovery()::text"
expect = "false"

[[steps]]
type = "sql"
session = "on_standby"
sql = "UPDATE pgbench_accounts SET abalance = 200 WHERE aid = 1"
)toml" + wait_on_cascade(200) + R"toml(
[[steps]]
type = "sql"
name = "cascade-timeline"
session = "on_cascade"
sql = "SELECT status || ' ' || received_tli FROM pg_stat_wal_receiver"
expect = "streaming 2"

[[steps]]
type = "timed-sql"
name = "new-primary-with-cascade"
server = "standby"
sql = "SELECT 1"

[[steps]]
type = "start"
server = "primary"

[[steps]]
type = "timed-sql"
name = "old-primary-alone"
server = "primary"
sql = "SELECT 1"
)toml";
    const fs::path file = write("promote.toml", experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 2u);
    for (const auto& l : ls) {
        SCOPED_TRACE(l["run"].dump());
        EXPECT_EQ(l["status"], "ok") << l.dump();
        const auto& steps = l["steps"];
        ASSERT_EQ(steps.size(), 15u);
        std::map<std::string, nlohmann::json> by_key;
        for (const auto& s : steps) {
            EXPECT_EQ(s["status"], "ok") << s.dump();
            by_key[s["key"].get<std::string>()] = s;
        }
        EXPECT_EQ(by_key["3:sql"]["result"], "100");
        EXPECT_EQ(by_key["3:sql"]["server"], "cascade");
        EXPECT_EQ(by_key["5:stop"]["mode"], "immediate");
        const auto& promote = by_key["promote"];
        EXPECT_EQ(promote["type"], "promote");
        EXPECT_EQ(promote["server"], "standby");
        EXPECT_TRUE(promote["elapsed_ms"].is_number()) << promote;
        EXPECT_EQ(by_key["standby-is-primary"]["result"], "false");
        EXPECT_EQ(by_key["10:sql"]["result"], "200");
        EXPECT_EQ(by_key["cascade-timeline"]["result"], "streaming 2");
        // The replication probe follows the topology: the primary has the standby before the
        // promotion, the promoted standby has the cascade, the old primary has no one.
        EXPECT_EQ(by_key["primary-with-standby"]["replication"]["standbys"], 1)
            << by_key["primary-with-standby"];
        EXPECT_EQ(by_key["new-primary-with-cascade"]["replication"]["standbys"], 1)
            << by_key["new-primary-with-cascade"];
        EXPECT_FALSE(by_key["old-primary-alone"].contains("replication"))
            << by_key["old-primary-alone"];
    }
    // The promoted standby and its cascade were made anew for the second run; the primary was not.
    EXPECT_TRUE(fs::exists(results / "servers/primary/1-postgresql.log"));
    EXPECT_FALSE(fs::exists(results / "servers/primary/2-postgresql.log"));
    for (const char* server : {"standby", "cascade"}) {
        SCOPED_TRACE(server);
        EXPECT_TRUE(fs::exists(results / "servers" / server / "1-postgresql.log"));
        EXPECT_TRUE(fs::exists(results / "servers" / server / "2-postgresql.log"));
    }
    EXPECT_NE(read_file(results / "servers/standby/1-postgresql.log").find("selected new timeline"),
              std::string::npos);
    expect_clean();
}

TEST_F(LabPromote, PromotingWhatIsNoStandbyIsRefusedBeforeAnythingStarts) {
    const fs::path results = m_dir / "results";

    struct Case {
        std::string name;
        std::string text;
        std::string message;
        std::string hint;
    };

    const std::vector<Case> cases = {
        // line 8 is the promote step's [[steps]]
        {"named.toml",
         "[servers.primary]\n\n[servers.standby]\nstandby_of = \"primary\"\n\n[[steps]]\n"
         "type = \"checkpoint\"\n[[steps]]\ntype = \"promote\"\nserver = \"primary\"\n",
         "step 2 (promote): server \"primary\" is not a standby", "server = \"standby\""},
        {"default.toml", "\n\n\n\n\n\n\n[[steps]]\ntype = \"promote\"\n",
         "step 1 (promote): server \"default\" is not a standby", "standby_of"},
        // An existing server is refused before pglab even connects to it.
        {"existing.toml",
         "[servers.other]\nconninfo = \"host=/nonexistent port=1\"\n\n\n\n\n\n[[steps]]\n"
         "type = \"promote\"\n",
         "step 1 (promote): server \"other\" is an existing server (conninfo)", "standby_of"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        const fs::path file = write(c.name, c.text);
        const auto r = run_experiment(file, results);
        EXPECT_EQ(r.exit_code, 1) << support::describe(r);
        EXPECT_NE(r.err.find(file.string() + ":8:1: " + c.message), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("hint:"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(c.hint), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(results));
        EXPECT_TRUE(fs::is_empty(m_tmp));
    }
}

TEST_F(LabPromote, PromotingAPromotedOrStoppedStandbyFailsTheRun) {
    // One run per case; the second starts from a fresh standby (the first promoted it). The runs'
    // server is the standby: a step on another server would start it again if it was stopped.
    const std::string experiment = R"toml(name = "lab-promote-errors"
server = "standby"
on_error = "continue"
order = "as-written"

[servers.primary]
version = "15"
settings = { fsync = false }

[servers.standby]
version = "15"
standby_of = "primary"

[matrix]
params.case = ["twice", "stopped"]

[[steps]]
type = "promote"
when = "params.case == 'twice'"

[[steps]]
type = "stop"
when = "params.case == 'stopped'"

[[steps]]
type = "promote"
)toml";
    const fs::path file = write("errors.toml", experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 2u);
    const std::string at = file.string() + ":25:1: ";

    const struct {
        const char* message;
        const char* hint;
    } expected[] = {
        {"server \"standby\" is no longer a standby: an earlier step of this run promoted it",
         "; hint: promote a standby once per run"},
        {"server \"standby\" is not running", "; hint: start it with a \"start\" step"},
    };

    for (std::size_t i = 0; i < 2; ++i) {
        SCOPED_TRACE(i);
        const auto& l = ls[i];
        EXPECT_EQ(l["status"], "failed") << l.dump();
        EXPECT_EQ(l["steps"][i]["status"], "ok") << l.dump();
        EXPECT_EQ(l["error"]["step"], 2) << l.dump();
        const std::string reason = l["error"]["reason"].get<std::string>();
        EXPECT_EQ(reason.rfind(at + expected[i].message, 0), 0u) << reason;
        EXPECT_NE(reason.find(expected[i].hint), std::string::npos) << reason;
        EXPECT_NE(r.err.find(at + expected[i].message), std::string::npos) << r.err;
    }
    EXPECT_TRUE(fs::exists(results / "servers/standby/2-postgresql.log"));
    expect_clean();
}

} // namespace
