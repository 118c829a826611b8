// lab/probe against real servers: a step that writes gives WAL bytes, commits and server CPU, a
// CHECKPOINT moves the checkpointer counters; the same on every release of another major version
// that `pglab server fetch` put in the cache (skipped when there is none: tests never download).
#include "lab/probe/probe.hpp"
#include "lab/server/installation.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "pg/connection.hpp"
#include "support/test_server.hpp"
#include "support/wait.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>

namespace {

namespace probe = pglab::lab::probe;
namespace server = pglab::lab::server;
using namespace std::chrono_literals;

double value(const probe::Deltas& d, const std::string& name) {
    const std::optional<double> v = probe::find(d, name);
    EXPECT_TRUE(v) << name << " missing";
    return v.value_or(-1);
}

/// Statistics reach the views some time after the session that made them ends (a session that
/// has gone idle flushes them only after its idle timeout, 10 s; a loaded machine adds to it):
/// takes `after` snapshots until `ready` holds, for at most the generous event deadline.
template <class Ready>
probe::Deltas wait_for(pglab::pg::Connection& conn, const probe::ProbeContext& ctx,
                       const probe::Snapshot& before, Ready ready) {
    probe::Deltas d;
    support::wait_until([&] {
        auto after = probe::take_snapshot(conn, ctx);
        EXPECT_TRUE(after) << (after ? "" : after.error().message);
        if (!after) {
            return true; // the failure is reported; nothing to wait for
        }
        d = probe::diff(before, *after);
        return ready(d);
    });
    return d;
}

void check_probes(const server::ThrowawayCluster& cluster) {
    SCOPED_TRACE("PostgreSQL " + cluster.installation().version);
    const int major = cluster.installation().major;
    pglab::pg::Connection conn = support::connect(cluster);
    ASSERT_TRUE(conn.valid());
    probe::ProbeContext ctx;
    ctx.postmaster_pid = cluster.server_pid();
    ctx.data_dir = cluster.data_dir();

    auto before = probe::take_snapshot(conn, ctx);
    ASSERT_TRUE(before) << before.error().message;
    EXPECT_EQ(before->server_version_num / 10000, major);
    EXPECT_EQ(before->postmaster_pid, cluster.server_pid());

    // Names are unique, whichever view they came from on this version.
    std::set<std::string> names;
    for (const probe::Sample& s : before->samples) {
        EXPECT_TRUE(names.insert(s.name).second) << s.name << " twice";
    }
    for (const char* always :
         {"wal.bytes", "wal.segment_files", "db.xact_commit", "db.blks_hit", "db.temp_bytes",
          "checkpointer.num_timed", "checkpointer.num_requested", "checkpointer.buffers_written",
          "bgwriter.buffers_clean", "bgwriter.buffers_alloc", "server.cpu_s", "client.cpu_s",
          "db.size_bytes", "host.cpus"}) {
        EXPECT_TRUE(before->find(always)) << always;
    }
    EXPECT_EQ(before->find("wal.records") != nullptr, major >= 14);
    EXPECT_EQ(before->find("wal.fpi") != nullptr, major >= 14);
    EXPECT_EQ(before->find("backend.buffers_written") != nullptr, major < 17);
    EXPECT_EQ(before->find("checkpointer.num_done") != nullptr, major >= 18);
    // WAL writes and syncs: pg_stat_wal 14-17, pg_stat_io's WAL rows from 18.
    for (const char* wal : {"wal.write", "wal.sync"}) {
        EXPECT_EQ(before->find(wal) != nullptr, major >= 14) << wal;
    }
    // pg_stat_io 16+: totals and one name per row and operation.
    for (const char* io :
         {"io.writes", "io.fsyncs", "io.checkpointer.relation.normal.writes",
          "io.checkpointer.relation.normal.fsyncs", "io.client_backend.relation.vacuum.writes"}) {
        EXPECT_EQ(before->find(io) != nullptr, major >= 16) << io;
    }
    // I/O times the server measures only with track_io_timing and track_wal_io_timing: off by
    // default, they are left out, not recorded as 0 (issue 62); on, they are read.
    const std::vector<const char*> times = {"wal.write_time", "wal.sync_time", "db.blk_read_time",
                                            "io.write_time", "io.fsync_time"};
    for (const char* time : times) {
        EXPECT_EQ(before->find(time), nullptr) << time;
    }
    ASSERT_TRUE(conn.exec_command("SET track_io_timing = on"));
    if (major >= 14) {
        ASSERT_TRUE(conn.exec_command("SET track_wal_io_timing = on"));
    }
    const auto timed = probe::take_snapshot(conn, ctx);
    ASSERT_TRUE(timed) << timed.error().message;
    EXPECT_NE(timed->find("db.blk_read_time"), nullptr);
    for (const char* wal : {"wal.write_time", "wal.sync_time"}) {
        EXPECT_EQ(timed->find(wal) != nullptr, major >= 14) << wal;
    }
    for (const char* io : {"io.write_time", "io.fsync_time"}) {
        EXPECT_EQ(timed->find(io) != nullptr, major >= 16) << io;
    }
    ASSERT_TRUE(conn.exec_command("RESET track_io_timing"));
    if (major >= 14) {
        ASSERT_TRUE(conn.exec_command("RESET track_wal_io_timing"));
    }
    EXPECT_EQ(before->find("io.walwriter.wal.normal.writes") != nullptr, major >= 18);

    // Without the pid, a unix-socket connection finds the postmaster itself.
    auto derived = probe::take_snapshot(conn, probe::ProbeContext{});
    ASSERT_TRUE(derived);
    EXPECT_EQ(derived->postmaster_pid, cluster.server_pid());

    {
        pglab::pg::Connection work = support::connect(cluster);
        ASSERT_TRUE(work.valid());
        ASSERT_TRUE(work.exec_command("CREATE TABLE probe_t AS"
                                      " SELECT g AS id, md5(g::text) AS v"
                                      " FROM generate_series(1, 50000) g"));
        ASSERT_TRUE(work.exec_command("UPDATE probe_t SET v = v || 'x' WHERE id % 2 = 0"));
        ASSERT_TRUE(work.exec_command("SET work_mem = '64kB'"));
        ASSERT_TRUE(work.exec("SELECT v FROM probe_t ORDER BY v OFFSET 49999"));
        (void)work.exec("SELECT 1/0"); // a rollback
    }                                  // disconnects: the session's statistics are sent
    // The session's WAL statistics (pg_stat_wal, pg_stat_io) may arrive after its database ones.
    const probe::Deltas d = wait_for(conn, ctx, *before, [major](const probe::Deltas& x) {
        return probe::find(x, "db.tup_updated").value_or(0) >= 25000
               && probe::find(x, "db.xact_rollback").value_or(0) >= 1
               && probe::find(x, "db.temp_files").value_or(0) >= 1
               && (major < 14
                   || (probe::find(x, "wal.records").value_or(0) > 50000
                       && probe::find(x, "wal.write").value_or(0) >= 1));
    });
    ASSERT_FALSE(d.empty());
    EXPECT_EQ(d.front().name, "elapsed_s");
    EXPECT_GT(value(d, "wal.bytes"), 5e6); // 50000 rows, then 25000 new versions
    EXPECT_GE(value(d, "db.xact_commit"), 3);
    EXPECT_GE(value(d, "db.xact_rollback"), 1);
    EXPECT_GE(value(d, "db.tup_inserted"), 50000);
    EXPECT_GE(value(d, "db.tup_updated"), 25000);
    EXPECT_GE(value(d, "db.temp_files"), 1);
    EXPECT_GT(value(d, "db.temp_bytes"), 0);
    EXPECT_GE(value(d, "wal.segment_files"), 1);
    EXPECT_GT(value(d, "db.size_bytes"), 1e6); // the level after: 50000 rows and more
    // Shares of the step's time, over the machine's CPUs (host.cpus, a level).
    EXPECT_GE(value(d, "host.cpu_pct"), 0);
    EXPECT_LE(value(d, "server.cpu_pct"), 100.0 + 1e-9);
    // CPU time comes in clock ticks, and a backend that just exited counts only once the
    // postmaster has reaped it: a short step may read 0 (docs/probes.md).
    EXPECT_GE(value(d, "server.cpu_s"), 0);
    EXPECT_NEAR(value(d, "server.cpu_s"),
                value(d, "server.cpu_user_s") + value(d, "server.cpu_system_s"), 1e-9);
    EXPECT_GE(value(d, "client.cpu_s"), 0);
    if (major >= 14) {
        EXPECT_GT(value(d, "wal.records"), 50000);
        // pg_stat_wal counts what the insert position moved by, give or take page headers
        // and the records of other processes.
        EXPECT_NEAR(value(d, "wal.stat_bytes"), value(d, "wal.bytes"), 0.1 * value(d, "wal.bytes"));
        EXPECT_GE(value(d, "wal.write"), 1); // the commits wrote WAL out
        EXPECT_GE(value(d, "wal.sync"), 0);  // fsync = off: no flush is counted
    }

    auto before_checkpoint = probe::take_snapshot(conn, ctx);
    ASSERT_TRUE(before_checkpoint);
    ASSERT_TRUE(conn.exec_command("CHECKPOINT"));
    const probe::Deltas c =
        wait_for(conn, ctx, *before_checkpoint, [major](const probe::Deltas& x) {
            return probe::find(x, "checkpointer.num_requested").value_or(0) >= 1
                   && probe::find(x, "checkpointer.buffers_written").value_or(0) > 0
                   && (major < 16
                       || probe::find(x, "io.checkpointer.relation.normal.writes").value_or(0) > 0);
        });
    if (major >= 16) {
        // The checkpoint's writes, in pg_stat_io too.
        EXPECT_GT(value(c, "io.checkpointer.relation.normal.writes"), 0);
        EXPECT_GE(value(c, "io.writes"), value(c, "io.checkpointer.relation.normal.writes"));
    }
    EXPECT_GE(value(c, "checkpointer.num_requested"), 1);
    EXPECT_GT(value(c, "checkpointer.buffers_written"), 0);
    EXPECT_GT(value(c, "wal.bytes"), 0); // the checkpoint record
    ASSERT_TRUE(conn.exec_command("DROP TABLE probe_t"));
}

TEST(ProbeTest, TestServer) {
    check_probes(support::test_server());
}

TEST(ProbeTest, ReadOnlyStepWritesNoWal) {
    pglab::pg::Connection conn = support::connect(support::test_server());
    ASSERT_TRUE(conn.valid());
    // Another process (autovacuum after the previous test's DROP TABLE, the checkpointer) may
    // write a record, even a full-page image, in between: the quietest of five tries counts,
    // each after autovacuum has no worker running.
    const std::string no_autovacuum = "NOT EXISTS (SELECT FROM pg_stat_activity WHERE "
                                      "backend_type = 'autovacuum worker')";
    double least = 1e18;
    for (int attempt = 0; attempt < 5 && least >= 8192; ++attempt) {
        EXPECT_TRUE(support::wait_for_sql(support::test_server(), no_autovacuum));
        auto before = probe::take_snapshot(conn);
        ASSERT_TRUE(before);
        ASSERT_TRUE(conn.exec("SELECT count(*) FROM pg_class"));
        auto after = probe::take_snapshot(conn);
        ASSERT_TRUE(after);
        least = std::min(least, value(probe::diff(*before, *after), "wal.bytes"));
    }
    EXPECT_LT(least, 8192);

    // Never inside the caller's transaction: its COMMIT would end it.
    ASSERT_TRUE(conn.exec_command("BEGIN"));
    EXPECT_FALSE(probe::take_snapshot(conn));
    ASSERT_TRUE(conn.exec_command("ROLLBACK"));
}

TEST(ProbeTest, FetchedReleases) {
    const int test_major = support::test_server().installation().major;
    std::set<int> done = {test_major};
    int checked = 0;
    for (const server::Installation& inst : server::list_installations()) {
        if (inst.origin != "cache" || !done.insert(inst.major).second) {
            continue;
        }
        server::ClusterOptions o;
        o.bin_dir = inst.bin_dir;
        o.settings = {{"fsync", "off"}};
        auto cluster = server::ThrowawayCluster::create(std::move(o));
        ASSERT_TRUE(cluster) << inst.version << ": " << cluster.error().message;
        check_probes(*cluster);
        ++checked;
    }
    if (checked == 0) {
        GTEST_SKIP() << "no release of another major version in " << server::release_cache_dir()
                     << " (pglab server fetch 17)";
    }
}

} // namespace
