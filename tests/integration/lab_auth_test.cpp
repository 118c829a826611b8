// `pglab run` with `auth = "scram-sha-256"`: the throwaway cluster asks every client for the
// password pglab generated, pglab's own connections (sessions, probes, bench, init) give it, a
// `shell` step gets it in PGPASSWORD (psql connects), and it appears nowhere in the results
// directory or on the terminal.
#include <regex>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabAuth = support::LabTestDir;

constexpr const char* k_auth_experiment = R"toml(name = "lab-scram"

[servers.secure]
auth = "scram-sha-256"

[matrix]
clients = 1
scale = 1
duration = 1

[[steps]]
type = "init"
options = ["--quiet"]

[[steps]]
type = "bench"
options = ["--jobs=1"]

[[steps]]
type = "sql"
sql = "SELECT string_agg(DISTINCT auth_method, ',') FROM pg_hba_file_rules"
expect = "scram-sha-256"

[[steps]]
type = "sql"
sql = "SELECT rolpassword LIKE 'SCRAM-SHA-256$%' FROM pg_authid WHERE rolname = current_user"
expect = "t"

[[steps]]
type = "timed-sql"
sql = "VACUUM pgbench_accounts"
)toml";

TEST_F(LabAuth, ScramClusterWithAGeneratedPassword) {
    const fs::path file = write("scram.toml", k_auth_experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u);
    EXPECT_EQ(ls[0]["status"], "ok") << ls[0].dump();
    for (const auto& step : ls[0]["steps"]) {
        EXPECT_EQ(step["status"], "ok") << step.dump();
    }
    EXPECT_GT(ls[0]["steps"][1]["probes"].value("wal.bytes", 0.0), 0.0);
    // The password is 32 hex digits: nothing of the kind is written or printed.
    const std::regex password("[0-9a-f]{32}");
    EXPECT_FALSE(std::regex_search(all_text(results), password));
    EXPECT_FALSE(std::regex_search(r.err + r.out, password)) << r.err;
    expect_clean();
}

TEST_F(LabAuth, ShellStepConnectsWithPsqlThroughPgpassword) {
    const fs::path file = write("scram-shell.toml", R"toml(name = "lab-scram-shell"

[servers.secure]
auth = "scram-sha-256"

[[steps]]
type = "shell"
command = "psql -XAtc 'select 1'"
)toml");
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    EXPECT_EQ(r.exit_code, 0) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u);
    const auto& step = ls[0]["steps"][0];
    EXPECT_EQ(step["status"], "ok") << step.dump();
    EXPECT_EQ(step["exit_status"], 0) << step.dump();
    const std::string log = read_file(results / step["log"].get<std::string>());
    EXPECT_NE(log.find("\n1\n"), std::string::npos) << log;
    const std::regex password("[0-9a-f]{32}"); // the generated password: written nowhere
    EXPECT_FALSE(std::regex_search(all_text(results), password));
    EXPECT_FALSE(std::regex_search(r.err + r.out, password)) << r.err;
    expect_clean();
}

} // namespace
