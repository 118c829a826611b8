// `archive = true`: the server archives each finished WAL segment into its own directory (as the
// S1d paper's archive_command did), and a standby of it restores from there what streaming no
// longer has; the standby does not inherit its primary's archiving.
#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabArchive = support::LabTestDir;

TEST_F(LabArchive, APrimaryArchivesAndItsStandbyRestoresFromIt) {
    const fs::path file = write("archive.toml", R"toml(name = "archive"
server = "primary"

[servers.primary]
archive = true
settings = { wal_level = "replica", max_wal_senders = 3 }

[servers.standby]
standby_of = "primary"

[sessions.on_standby]
server = "standby"

[[steps]]
type = "sql"
sql = ["CREATE TABLE archived AS SELECT g FROM generate_series(1, 1000) g", "SELECT pg_switch_wal()"]

[[steps]]
type = "sql"
name = "archived"
# The archiver copies the finished segment in the background: wait for it, at most 60 s.
sql = [
  "DO $$ BEGIN FOR i IN 1..600 LOOP PERFORM pg_stat_clear_snapshot(); EXIT WHEN (SELECT archived_count FROM pg_stat_archiver) > 0; PERFORM pg_sleep(0.1); END LOOP; END $$",
  "SELECT archived_count > 0 AND failed_count = 0 FROM pg_stat_archiver",
]
expect = "t"

[[steps]]
type = "sql"
name = "standby-restores"
session = "on_standby"
sql = "SELECT current_setting('restore_command') LIKE 'cp %' AND position('/archive/' in current_setting('restore_command')) > 0 AND current_setting('archive_mode') = 'off'"
expect = "t"
)toml");
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1U);
    EXPECT_EQ(ls[0]["status"], "ok") << ls[0].dump();
    for (const auto& step : ls[0]["steps"]) {
        EXPECT_EQ(step["status"], "ok") << step.dump();
    }
    expect_clean();
}

} // namespace
