// `pglab run` with a `VACUUM (VERBOSE)` and an `ANALYZE (VERBOSE)` step: the server's own report
// becomes vacuum.* and analyze.* probes of the step, and agrees with what the snapshots counted
// (the VACUUM's WAL is all of the step's WAL). On the installed server and on every cached
// release of 15 or later (older ones print another report: no vacuum.* there, and nothing
// quoted).

#include <fmt/format.h>

#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabVacuumVerbose = support::LabTestDir;

TEST_F(LabVacuumVerbose, TheServersReportBecomesTheStepsFigures) {
    const auto found = support::installed_and_cached(15);
    if (found.empty()) {
        GTEST_SKIP() << "no PostgreSQL 15 or later installed or in the release cache";
    }
    const std::string experiment = fmt::format(R"toml(name = "vacuum-verbose"

{}
[[steps]]
type = "sql"
sql = "CREATE TABLE vv AS SELECT g AS id, repeat('x', 100) AS v FROM generate_series(1, 20000) g"

[[steps]]
type = "sql"
sql = "CREATE INDEX vv_id ON vv (id)"

[[steps]]
type = "sql"
sql = "DELETE FROM vv WHERE id % 4 = 0"

[[steps]]
type = "checkpoint"

[[steps]]
type = "timed-sql"
name = "vacuum"
sql = "VACUUM (VERBOSE) vv"

[[steps]]
type = "timed-sql"
name = "analyze"
sql = "ANALYZE (VERBOSE) vv"
)toml",
                                               support::servers_of_every_version(found));
    const fs::path file = write("vacuum-verbose.toml", experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);

    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), found.size());
    for (const auto& l : ls) {
        SCOPED_TRACE(fmt::format("PostgreSQL {}", l["server"]["version"].get<std::string>()));
        const auto& vacuum = l["steps"][4];
        ASSERT_EQ(vacuum["status"], "ok") << vacuum.dump();
        EXPECT_FALSE(vacuum.contains("probe_notes")) << vacuum["probe_notes"];
        const auto& p = vacuum["probes"];
        // The 5,000 deleted rows (none pruned before: no page was read since the DELETE).
        EXPECT_EQ(p.value("vacuum.tuples_removed", -1.0), 5000) << p;
        EXPECT_EQ(p.value("vacuum.tuples_remain", -1.0), 15000) << p;
        EXPECT_GT(p.value("vacuum.pages_scanned", 0.0), 100) << p;
        EXPECT_EQ(p.value("vacuum.index_scans", -1.0), 1) << p;
        EXPECT_GT(p.value("vacuum.index_pages", 0.0), 0) << p;
        EXPECT_GT(p.value("vacuum.buffer_hits", 0.0) + p.value("vacuum.buffer_misses", 0.0), 0)
            << p;
        EXPECT_EQ(vacuum["probe_units"].value("vacuum.pages_scanned", ""), "blocks");
        // The VACUUM's own WAL is the step's: pg_stat_wal over the step counts the same records.
        const double records = p.value("vacuum.wal_records", 0.0);
        EXPECT_GT(records, 0) << p;
        EXPECT_GT(p.value("vacuum.wal_fpi", 0.0), 0) << p;
        EXPECT_LE(records, p.value("wal.records", 0.0)) << p;
        EXPECT_GE(records, 0.9 * p.value("wal.records", 0.0)) << p;
        EXPECT_LE(p.value("vacuum.wal_bytes", 0.0), p.value("wal.stat_bytes", 0.0)) << p;

        const auto& analyze = l["steps"][5];
        ASSERT_EQ(analyze["status"], "ok") << analyze.dump();
        EXPECT_FALSE(analyze.contains("probe_notes")) << analyze["probe_notes"];
        const auto& a = analyze["probes"];
        EXPECT_EQ(a.value("analyze.live_rows", -1.0), 15000) << a;
        EXPECT_EQ(a.value("analyze.rows_sampled", -1.0), 15000) << a;
        EXPECT_GT(a.value("analyze.pages_scanned", 0.0), 100) << a;
    }
    expect_clean();
}

} // namespace
