// lab/probe: VACUUM VERBOSE and ANALYZE VERBOSE reports read into vacuum.* and analyze.*
// samples: the S3b paper's own PostgreSQL 17 output to its printed figures, 18's wording, two
// tables summed, ANALYZE's sample line, and a line pglab does not know quoted, never guessed.
#include "lab/probe/vacuum_verbose.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace pglab::lab::probe {
namespace {

std::map<std::string, double> verbose_values(const VerboseFigures& f) {
    std::map<std::string, double> out;
    for (const Sample& s : f.samples) {
        out[s.name] = s.value;
    }
    return out;
}

std::string unit_of(const VerboseFigures& f, const std::string& name) {
    for (const Sample& s : f.samples) {
        if (s.name == name) {
            return s.unit;
        }
    }
    return "(none)";
}

// The paper's run (PostgreSQL 17, 95% of 3,000,000 rows updated, one index), as libpq hands the
// two INFO messages to a notice processor.
const std::vector<std::string> k_paper = {
    "INFO:  vacuuming \"pgbench_test.public.t_vacuum_test\"\n",
    "INFO:  finished vacuuming \"pgbench_test.public.t_vacuum_test\": index scans: 1\n"
    "pages: 0 removed, 25885 remain, 25885 scanned (100.00% of total)\n"
    "tuples: 2850000 removed, 3000000 remain, 0 are dead but not yet removable\n"
    "removable cutoff: 567348, which was 0 XIDs old when operation ended\n"
    "new relfrozenxid: 567346, which is 2 XIDs ahead of previous value\n"
    "frozen: 10745 pages from table (41.51% of total) had 121418 tuples frozen\n"
    "index scan needed: 13275 pages from table (51.28% of total) had 2850000 dead item "
    "identifiers removed\n"
    "index \"t_vacuum_test_id_idx\": pages: 16454 in total, 0 newly deleted, 0 currently "
    "deleted, 0 reusable\n"
    "avg read rate: 83.671 MB/s, avg write rate: 128.000 MB/s\n"
    "buffer usage: 62293 hits, 19266 misses, 29473 dirtied\n"
    "WAL usage: 68831 records, 24019 full page images, 75252272 bytes\n"
    "system usage: CPU: user: 1.27 s, system: 0.12 s, elapsed: 1.79 s\n"};

TEST(ProbeVacuumVerbose, ThePapersOutputGivesItsPrintedFigures) {
    const VerboseFigures f = read_verbose_notices(k_paper);
    EXPECT_TRUE(f.unread.empty()) << f.unread.front();
    const std::map<std::string, double> expected = {
        {"vacuum.index_scans", 1},
        {"vacuum.pages_removed", 0},
        {"vacuum.pages_remain", 25885},
        {"vacuum.pages_scanned", 25885},
        {"vacuum.tuples_removed", 2850000},
        {"vacuum.tuples_remain", 3000000},
        {"vacuum.tuples_dead_not_removable", 0},
        {"vacuum.pages_frozen", 10745},
        {"vacuum.tuples_frozen", 121418},
        {"vacuum.dead_item_pages", 13275},
        {"vacuum.dead_items", 2850000},
        {"vacuum.index_pages", 16454},
        {"vacuum.index_pages_newly_deleted", 0},
        {"vacuum.index_pages_deleted", 0},
        {"vacuum.index_pages_reusable", 0},
        {"vacuum.buffer_hits", 62293},
        {"vacuum.buffer_misses", 19266},
        {"vacuum.buffer_dirtied", 29473},
        {"vacuum.wal_records", 68831},
        {"vacuum.wal_fpi", 24019},
        {"vacuum.wal_bytes", 75252272},
        {"vacuum.cpu_user_s", 1.27},
        {"vacuum.cpu_system_s", 0.12},
        {"vacuum.elapsed_s", 1.79},
    };
    EXPECT_EQ(verbose_values(f), expected);
    EXPECT_EQ(unit_of(f, "vacuum.wal_bytes"), "bytes");
    EXPECT_EQ(unit_of(f, "vacuum.pages_scanned"), "blocks");
    EXPECT_EQ(unit_of(f, "vacuum.tuples_removed"), "rows");
    EXPECT_EQ(unit_of(f, "vacuum.cpu_user_s"), "s");
    EXPECT_EQ(f.samples.front().name, "vacuum.index_scans"); // in the report's order
}

TEST(ProbeVacuumVerbose, EighteensWordingAndItsNewLines) {
    VerboseFigures f;
    read_verbose_notice(
        "INFO:  finished vacuuming \"db.public.t\": index scans: 0\n"
        "pages: 0 removed, 100 remain, 40 scanned (40.00% of total), 3 eagerly scanned\n"
        "tuples: 10 removed, 990 remain, 2 are dead but not yet removable\n"
        "tuples missed: 2 dead from 1 pages not removed due to cleanup lock contention\n"
        "removable cutoff: 800, which was 1 XIDs old when operation ended\n"
        "new relminmxid: 1, which is 0 MXIDs ahead of previous value\n"
        "visibility map: 38 pages set all-visible, 5 pages set all-frozen (2 were all-visible)\n"
        "index scan bypassed: 4 pages from table (4.00% of total) have 10 dead item identifiers\n"
        "I/O timings: read: 1.500 ms, write: 0.250 ms\n"
        "delay time: 12.000 ms\n"
        "memory usage: dead item storage 0.02 MB accumulated across 0 resets (limit 64.00 MB "
        "each)\n"
        "buffer usage: 120 hits, 20 reads, 43 dirtied\n"
        "WAL usage: 90 records, 40 full page images, 350000 bytes, 0 buffers full\n"
        "system usage: CPU: user: 0.00 s, system: 0.01 s, elapsed: 0.02 s\n",
        f);
    EXPECT_TRUE(f.unread.empty()) << f.unread.front();
    const auto v = verbose_values(f);
    EXPECT_EQ(v.at("vacuum.pages_eagerly_scanned"), 3);
    EXPECT_EQ(v.at("vacuum.tuples_missed"), 2);
    EXPECT_EQ(v.at("vacuum.pages_missed"), 1);
    EXPECT_EQ(v.at("vacuum.pages_set_all_visible"), 38);
    EXPECT_EQ(v.at("vacuum.pages_set_all_frozen"), 5);
    EXPECT_EQ(v.at("vacuum.dead_items"), 10);
    EXPECT_EQ(v.at("vacuum.read_time_ms"), 1.5);
    EXPECT_EQ(v.at("vacuum.write_time_ms"), 0.25);
    EXPECT_EQ(v.at("vacuum.delay_time_ms"), 12);
    EXPECT_EQ(v.at("vacuum.buffer_misses"), 20); // "reads" from 18 on
    EXPECT_EQ(v.at("vacuum.wal_buffers_full"), 0);
    EXPECT_EQ(v.at("vacuum.wal_fpi"), 40);
}

TEST(ProbeVacuumVerbose, TheTablesOfOneStepAreSummed) {
    std::vector<std::string> two = k_paper;
    two.push_back(k_paper[1]);
    const auto v = verbose_values(read_verbose_notices(two));
    EXPECT_EQ(v.at("vacuum.wal_fpi"), 2 * 24019);
    EXPECT_EQ(v.at("vacuum.index_scans"), 2);
    EXPECT_DOUBLE_EQ(v.at("vacuum.elapsed_s"), 3.58);
}

TEST(ProbeVacuumVerbose, AnalyzeReportsItsSampleAndItsUsage) {
    const VerboseFigures f = read_verbose_notices(
        {"INFO:  analyzing \"public.t_vacuum_test\"\n",
         "INFO:  \"t_vacuum_test\": scanned 25885 of 25885 pages, containing 3000000 live rows "
         "and 0 dead rows; 30000 rows in sample, 3000000 estimated total rows\n",
         "INFO:  finished analyzing table \"pgbench_test.public.t_vacuum_test\"\n"
         "avg read rate: 0.000 MB/s, avg write rate: 0.000 MB/s\n"
         "buffer usage: 25921 hits, 0 misses, 0 dirtied\n"
         "system usage: CPU: user: 0.14 s, system: 0.00 s, elapsed: 0.15 s\n"});
    EXPECT_TRUE(f.unread.empty()) << f.unread.front();
    const auto v = verbose_values(f);
    EXPECT_EQ(v.at("analyze.pages_scanned"), 25885);
    EXPECT_EQ(v.at("analyze.pages_total"), 25885);
    EXPECT_EQ(v.at("analyze.live_rows"), 3000000);
    EXPECT_EQ(v.at("analyze.dead_rows"), 0);
    EXPECT_EQ(v.at("analyze.rows_sampled"), 30000);
    EXPECT_EQ(v.at("analyze.rows_estimated"), 3000000);
    EXPECT_EQ(v.at("analyze.buffer_hits"), 25921);
    EXPECT_DOUBLE_EQ(v.at("analyze.elapsed_s"), 0.15);
    EXPECT_EQ(v.count("vacuum.buffer_hits"), 0U);
}

TEST(ProbeVacuumVerbose, AnUnknownLineIsQuotedAndItsFiguresAbsent) {
    // 14's pages line, and a line no release prints.
    const VerboseFigures f = read_verbose_notices(
        {"INFO:  finished vacuuming \"db.public.t\": index scans: 0\n"
         "pages: 0 removed, 100 remain, 0 skipped due to pins, 0 skipped frozen\n"
         "sparkles: 3 pages polished\n"
         "WAL usage: 9 records, 4 full page images, 35000 bytes\n"});
    ASSERT_EQ(f.unread.size(), 2U);
    EXPECT_EQ(f.unread[0], "VACUUM VERBOSE: a line pglab does not read: \"pages: 0 removed, 100 "
                           "remain, 0 skipped due to pins, 0 skipped frozen\"");
    EXPECT_EQ(f.unread[1],
              "VACUUM VERBOSE: a line pglab does not read: \"sparkles: 3 pages polished\"");
    const auto v = verbose_values(f);
    EXPECT_EQ(v.count("vacuum.pages_removed"), 0U);
    EXPECT_EQ(v.count("vacuum.pages_scanned"), 0U);
    EXPECT_EQ(v.at("vacuum.wal_records"), 9); // the lines it knows are still read
}

TEST(ProbeVacuumVerbose, OtherNoticesGiveNothing) {
    const VerboseFigures f =
        read_verbose_notices({"NOTICE:  table \"pgbench_history\" does not exist, skipping\n",
                              "INFO:  vacuuming \"db.public.t\"\n",
                              "WARNING:  skipping \"pg_authid\" --- only "
                              "superuser can vacuum it\n"});
    EXPECT_TRUE(f.samples.empty());
    EXPECT_TRUE(f.unread.empty());
}

} // namespace
} // namespace pglab::lab::probe
