// lab/probe: pg_stat_wal's record counters against the WAL insert position: page headers
// counted, alignment allowed, a shortfall or a surplus withheld with its reason, the counters of
// a server without pg_stat_wal noted as not measured.
#include "lab/probe/wal_agreement.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace pglab::lab::probe {
namespace {

constexpr unsigned long long k_mb = 1ULL << 20;

TEST(ProbeWalAgreement, PageHeadersOfThePagesBegun) {
    const WalLayout layout;
    EXPECT_EQ(wal_page_header_bytes(100, 200, layout), 0U);     // within one page
    EXPECT_EQ(wal_page_header_bytes(100, 8192, layout), 24U);   // the next page begun
    EXPECT_EQ(wal_page_header_bytes(8191, 8193, layout), 24U);  // across one boundary
    EXPECT_EQ(wal_page_header_bytes(0, 3 * 8192, layout), 72U); // three pages begun
    // A segment's first page has the long header.
    EXPECT_EQ(wal_page_header_bytes(16 * k_mb - 10, 16 * k_mb + 10, layout), 40U);
    EXPECT_EQ(wal_page_header_bytes(0, 32 * k_mb, layout), 4096U * 24 + 2 * 16);
    EXPECT_EQ(wal_page_header_bytes(500, 100, layout), 0U); // backwards: nothing
    // Another segment size (initdb --wal-segsize=1).
    EXPECT_EQ(wal_page_header_bytes(k_mb - 1, k_mb + 1, WalLayout{8192, k_mb}), 40U);
}

TEST(ProbeWalAgreement, RecordsAndHeadersAccountForTheMove) {
    const WalLayout layout;
    const unsigned long long start = 5 * k_mb + 1000;
    const unsigned long long end = start + 10 * k_mb;
    const double headers = static_cast<double>(wal_page_header_bytes(start, end, layout));
    const double moved = static_cast<double>(end - start);
    // Every record aligned to 8 bytes: 1,000 records padded by 3 bytes each.
    EXPECT_FALSE(wal_statistics_gap(start, end, moved - headers - 3000, 1000, layout));
    // The most padding there can be.
    EXPECT_FALSE(wal_statistics_gap(start, end, moved - headers - 7000, 1000, layout));
    // Within 1% either way.
    EXPECT_FALSE(wal_statistics_gap(start, end, (moved - headers) * 1.009, 1000, layout));
    EXPECT_FALSE(wal_statistics_gap(start, end, (moved - headers) * 0.991 - 7000, 1000, layout));
}

TEST(ProbeWalAgreement, AShortfallSaysStatisticsWereNotFlushed) {
    const WalLayout layout;
    const auto gap = wal_statistics_gap(0, 8 * k_mb, 4 * k_mb, 500, layout);
    ASSERT_TRUE(gap);
    EXPECT_NE(gap->find("pg_stat_wal counted 4194304 bytes in 500 records"), std::string::npos)
        << *gap;
    EXPECT_NE(gap->find("moved 8388608 bytes"), std::string::npos) << *gap;
    EXPECT_NE(gap->find("had not flushed its statistics"), std::string::npos) << *gap;
    // A VACUUM's records still in its session: none counted at all.
    EXPECT_TRUE(wal_statistics_gap(0, 8 * k_mb, 0, 0, layout));
}

TEST(ProbeWalAgreement, ASurplusSaysEarlierStatisticsArrived) {
    const auto gap = wal_statistics_gap(0, k_mb, 2.0 * k_mb, 100, WalLayout{});
    ASSERT_TRUE(gap);
    EXPECT_NE(gap->find("written before the step arrived during it"), std::string::npos) << *gap;
}

TEST(ProbeWalAgreement, SmallStepsAllowAPageHeaderEitherWay) {
    const WalLayout layout;
    EXPECT_FALSE(wal_statistics_gap(1000, 1000, 0, 0, layout)); // nothing written, nothing counted
    EXPECT_FALSE(wal_statistics_gap(1000, 1000, 40, 1, layout));
    EXPECT_TRUE(wal_statistics_gap(1000, 1000, 200, 2, layout));
    EXPECT_FALSE(wal_statistics_gap(1000, 1104, 100, 1, layout));
    EXPECT_TRUE(wal_statistics_gap(2000, 1000, 0, 0, layout)); // the position went back
}

Snapshot snapshot_at(unsigned long long lsn, int version = 170002) {
    Snapshot s;
    s.server_version_num = version;
    s.insert_lsn = lsn;
    s.wal_segment_size = 16 * k_mb;
    return s;
}

bool has_delta(const Deltas& deltas, const std::string& name) {
    return std::any_of(deltas.begin(), deltas.end(),
                       [&](const Delta& d) { return d.name == name; });
}

Deltas step_deltas(double lsn_moved, double stat_bytes, double records) {
    return {{"elapsed_s", 1.5, "s"},
            {"wal.bytes", lsn_moved, "bytes"},
            {"wal.records", records, "count"},
            {"wal.fpi", 10, "count"},
            {"wal.stat_bytes", stat_bytes, "bytes"},
            {"db.xact_commit", 3, "count"}};
}

TEST(ProbeWalAgreement, AgreeingCountersStay) {
    const Snapshot before = snapshot_at(1000);
    const Snapshot after = snapshot_at(1000 + 81920);
    Deltas d = step_deltas(81920, 81920 - 240 - 100, 50);
    EXPECT_FALSE(withhold_unflushed_wal(before, after, d));
    EXPECT_EQ(d.size(), 6U);
}

TEST(ProbeWalAgreement, UnflushedCountersAreWithheldTogether) {
    const Snapshot before = snapshot_at(1000);
    const Snapshot after = snapshot_at(1000 + 8 * k_mb);
    Deltas d = step_deltas(8.0 * k_mb, 0, 0);
    const auto note = withhold_unflushed_wal(before, after, d);
    ASSERT_TRUE(note);
    EXPECT_EQ(note->rfind("wal.records, wal.fpi, wal.stat_bytes withheld: pg_stat_wal counted 0 "
                          "bytes in 0 records",
                          0),
              0U)
        << *note;
    EXPECT_FALSE(has_delta(d, "wal.records"));
    EXPECT_FALSE(has_delta(d, "wal.fpi"));
    EXPECT_FALSE(has_delta(d, "wal.stat_bytes"));
    EXPECT_TRUE(has_delta(d, "wal.bytes")); // the exact measure stays
    EXPECT_TRUE(has_delta(d, "db.xact_commit"));
    EXPECT_TRUE(has_delta(d, "elapsed_s"));
}

TEST(ProbeWalAgreement, NineteensFpiBytesAreWithheldWithTheRecords) {
    const Snapshot before = snapshot_at(1000, 190000);
    const Snapshot after = snapshot_at(1000 + 8 * k_mb, 190000);
    Deltas d = step_deltas(8.0 * k_mb, 0, 0);
    d.push_back({"wal.fpi_bytes", 0, "bytes"});
    const auto note = withhold_unflushed_wal(before, after, d);
    ASSERT_TRUE(note);
    EXPECT_EQ(note->rfind("wal.records, wal.fpi, wal.stat_bytes, wal.fpi_bytes withheld: ", 0), 0U)
        << *note;
    EXPECT_FALSE(has_delta(d, "wal.fpi_bytes"));
    EXPECT_TRUE(has_delta(d, "wal.bytes"));

    // Agreeing counters keep it.
    Deltas agreeing = step_deltas(81920, 81920 - 240 - 100, 50);
    agreeing.push_back({"wal.fpi_bytes", 8192, "bytes"});
    EXPECT_FALSE(withhold_unflushed_wal(snapshot_at(1000, 190000),
                                        snapshot_at(1000 + 81920, 190000), agreeing));
    EXPECT_TRUE(has_delta(agreeing, "wal.fpi_bytes"));
}

TEST(ProbeWalAgreement, NoInsertPositionNothingToTellBy) {
    Snapshot before = snapshot_at(1000);
    Snapshot after = snapshot_at(2000);
    before.insert_lsn.reset(); // a standby
    Deltas d = step_deltas(1000, 900, 10);
    const auto note = withhold_unflushed_wal(before, after, d);
    ASSERT_TRUE(note);
    EXPECT_NE(note->find("insert position was not read"), std::string::npos) << *note;
    EXPECT_FALSE(has_delta(d, "wal.stat_bytes"));
}

TEST(ProbeWalAgreement, ServersWithoutPgStatWalAreNotedNeverZero) {
    Deltas d = {{"wal.bytes", 4096, "bytes"}, {"db.xact_commit", 1, "count"}};
    const auto note = withhold_unflushed_wal(snapshot_at(0, 130015), snapshot_at(4096, 130015), d);
    ASSERT_TRUE(note);
    EXPECT_EQ(*note, "wal.records, wal.fpi, wal.stat_bytes not measured: pg_stat_wal came with "
                     "PostgreSQL 14, this server is 13");
    EXPECT_EQ(d.size(), 2U);
    // On 14 and later their absence means a reset between the snapshots: nothing to add.
    EXPECT_FALSE(withhold_unflushed_wal(snapshot_at(0), snapshot_at(4096), d));
}

} // namespace
} // namespace pglab::lab::probe
