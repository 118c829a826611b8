// `pglab run` reads a step's WAL exactly: a VACUUM in a session, right after an UPDATE in the
// same session, gives its WAL records, full-page images and bytes at once (the session's
// statistics flushed before each snapshot), and pg_stat_wal's bytes account for the insert
// position's move. On the installed server and on every release of another major version that
// `pglab server fetch` put in the cache (16, 17 and 18 in CI; 12 too, where pg_stat_wal is
// absent and the step says so). Releases are never downloaded here.

#include <fmt/format.h>

#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabWalExact = support::LabTestDir;

TEST_F(LabWalExact, AVacuumsWalIsCountedWholeOnEveryVersion) {
    const auto found = support::installed_and_cached(11);
    ASSERT_FALSE(found.empty()) << "no PostgreSQL installed";
    // The UPDATE leaves a dead version of every other row; the CHECKPOINT makes the VACUUM's
    // first change of each page a full-page image. The UPDATE's own statistics are pending in
    // the session when the VACUUM starts, and the VACUUM's when it ends.
    const std::string experiment = fmt::format(R"toml(name = "wal-exact"

{}
[[steps]]
type = "sql"
sql = "CREATE TABLE wal_exact AS SELECT g AS id, repeat('x', 100) AS v FROM generate_series(1, 20000) g"

[[steps]]
type = "sql"
sql = "UPDATE wal_exact SET v = v || 'y' WHERE id % 2 = 0"

[[steps]]
type = "checkpoint"

[[steps]]
type = "timed-sql"
name = "vacuum"
sql = "VACUUM wal_exact"
)toml",
                                               support::servers_of_every_version(found));
    const fs::path file = write("wal-exact.toml", experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);

    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), found.size());
    for (const auto& l : ls) {
        const int major = l["server"]["version_num"].get<int>() / 10000;
        SCOPED_TRACE(fmt::format("PostgreSQL {}", l["server"]["version"].get<std::string>()));
        const auto& vacuum = l["steps"][3];
        ASSERT_EQ(vacuum["status"], "ok") << vacuum.dump();
        const auto& probes = vacuum["probes"];
        ASSERT_TRUE(probes.is_object()) << vacuum.dump();
        const double moved = probes.value("wal.bytes", 0.0);
        EXPECT_GT(moved, 8192 * 10.0) << probes; // pruned pages, most as full-page images
        if (major < 14) {
            EXPECT_FALSE(probes.contains("wal.records")) << probes;
            EXPECT_FALSE(probes.contains("wal.stat_bytes")) << probes;
            ASSERT_TRUE(vacuum.contains("probe_notes")) << vacuum.dump();
            EXPECT_NE(vacuum["probe_notes"].dump().find("pg_stat_wal came with PostgreSQL 14"),
                      std::string::npos)
                << vacuum["probe_notes"];
            continue;
        }
        EXPECT_FALSE(vacuum.contains("probe_notes")) << vacuum["probe_notes"];
        EXPECT_GT(probes.value("wal.records", 0.0), 0.0) << probes;
        EXPECT_GT(probes.value("wal.fpi", 0.0), 0.0) << probes;
        // The records' bytes: the move less page headers (0.3%) and alignment, within 1%.
        const double bytes = probes.value("wal.stat_bytes", 0.0);
        EXPECT_LE(bytes, moved * 1.01) << probes;
        EXPECT_GE(bytes, moved * 0.98) << probes;
    }
    expect_clean();
}

} // namespace
