// The emulated machine: the sync-delay preload library delays and counts syncs (alone, then
// inside a real server, where its counts agree with the server's own pg_stat_wal), and a server
// with memory_limit runs in a memory cgroup of its own (skipped, saying why, where this machine
// cannot make one).
#include "lab/probe/probe.hpp"
#include "lab/server/installation.hpp"
#include "lab/server/memory_cgroup.hpp"
#include "lab/server/sync_delay.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "pg/connection.hpp"
#include "support/test_server.hpp"
#include "support/wait.hpp"
#include "util/subprocess.hpp"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;
namespace probe = pglab::lab::probe;
namespace server = pglab::lab::server;
using namespace std::chrono_literals;

/// A directory of the test's own, removed at the end.
struct TempDir {
    fs::path path;

    TempDir() {
        std::string templ = (fs::temp_directory_path() / "pglab-emul-XXXXXX").string();
        EXPECT_NE(::mkdtemp(templ.data()), nullptr);
        path = templ;
    }

    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

/// `sync FILE...` (coreutils: one fsync per file, `-d` fdatasync) under the library.
pglab::util::ProcessResult run_sync(const fs::path& counts, std::vector<std::string> args) {
    auto lib = server::find_sync_delay_library();
    EXPECT_TRUE(lib) << lib.error().message;
    pglab::util::SpawnOptions o;
    o.argv = {"sync"};
    o.argv.insert(o.argv.end(), args.begin(), args.end());
    o.env = server::sync_delay_environment(*lib, counts, 0ns, "");
    auto r = pglab::util::run_process(o);
    EXPECT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->status.success()) << r->err;
    return *r;
}

TEST(SyncDelay, AnFsyncTakesAtLeastTheDelayAndIsCounted) {
    TempDir dir;
    const fs::path counts = dir.path / "counts";
    const fs::path file = dir.path / "data";
    std::ofstream(file) << "x";
    constexpr auto k_delay = 50ms;
    ASSERT_TRUE(server::create_sync_counts_file(counts, k_delay));

    const auto start = std::chrono::steady_clock::now();
    run_sync(counts, {file.string()});
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_GE(took, k_delay); // a lower bound: the library sleeps at least the delay

    const auto c = probe::read_sync_counts(counts);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->fsync, 1);
    EXPECT_EQ(c->calls, 1);
    EXPECT_GE(c->delayed_ms, 50.0);

    run_sync(counts, {"-d", file.string(), file.string(), file.string()});
    const auto d = probe::read_sync_counts(counts);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->fdatasync, 3);
    EXPECT_EQ(d->calls, 4);
    EXPECT_GE(d->delayed_ms, 4 * 50.0);
}

TEST(SyncDelay, ACountsFileOfAnotherLayoutIsLeftAlone) {
    TempDir dir;
    const fs::path counts = dir.path / "counts";
    const fs::path file = dir.path / "data";
    std::ofstream(file) << "x";
    std::ofstream(counts) << std::string(200000, 'z');
    run_sync(counts, {file.string()}); // runs, counts nothing, changes nothing
    EXPECT_FALSE(probe::read_sync_counts(counts));
    std::ifstream in(counts);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, std::string(200000, 'z'));
}

/// N commits with synchronous_commit: every commit flushes WAL (fdatasync, by the backend or by
/// the WAL writer), and the library's count of fdatasync calls is the server's own count of WAL
/// syncs (wal.sync: pg_stat_wal.wal_sync 14-17, pg_stat_io in 18; nothing else in PostgreSQL
/// calls fdatasync). `o` names the installation; `major` is its major version.
void check_sync_counts(server::ClusterOptions o, int major) {
    SCOPED_TRACE("PostgreSQL " + std::to_string(major));
    o.settings = {{"fsync", "on"}, {"wal_sync_method", "fdatasync"}};
    if (major >= 14) {
        o.settings.emplace_back("track_wal_io_timing", "on");
    }
    o.sync_delay = 2ms;
    auto cluster = server::ThrowawayCluster::create(std::move(o));
    ASSERT_TRUE(cluster) << cluster.error().message;
    ASSERT_FALSE(cluster->sync_counts_file().empty());
    EXPECT_TRUE(
        server::has_library_mapped(cluster->server_pid(), *server::find_sync_delay_library()));
    pglab::pg::Connection conn = support::connect(*cluster);
    ASSERT_TRUE(conn.valid());
    probe::ProbeContext ctx;
    ctx.postmaster_pid = cluster->server_pid();
    ctx.sync_counts_file = cluster->sync_counts_file();
    ASSERT_TRUE(conn.exec_command("CREATE TABLE t (i int)"));

    auto before = probe::take_snapshot(conn, ctx);
    ASSERT_TRUE(before) << before.error().message;
    ASSERT_TRUE(before->find("sync.calls"));
    constexpr int k_commits = 20;
    {
        pglab::pg::Connection work = support::connect(*cluster);
        for (int i = 0; i < k_commits; ++i) {
            ASSERT_TRUE(work.exec_command("INSERT INTO t VALUES (1)"));
        }
    } // disconnects: its WAL statistics are sent
    const bool has_wal_sync = before->find("wal.sync") != nullptr;
    EXPECT_EQ(has_wal_sync, major >= 14);
    probe::Deltas d;
    const bool agreed = support::wait_until([&] {
        auto after = probe::take_snapshot(conn, ctx);
        if (!after) {
            return true;
        }
        d = probe::diff(*before, *after);
        const double fdatasync = probe::find(d, "sync.fdatasync").value_or(-1);
        return fdatasync >= k_commits
               && (!has_wal_sync || probe::find(d, "wal.sync").value_or(-1) == fdatasync);
    });
    EXPECT_TRUE(agreed) << "sync.fdatasync " << probe::find(d, "sync.fdatasync").value_or(-1)
                        << ", wal.sync " << probe::find(d, "wal.sync").value_or(-1);
    // Each call slept the delay: the library measured it.
    EXPECT_GE(probe::find(d, "sync.delayed_ms").value_or(0),
              2.0 * probe::find(d, "sync.calls").value_or(1) * 0.999);
    if (has_wal_sync) {
        // The server's own sync time includes the delay (track_wal_io_timing).
        EXPECT_GE(probe::find(d, "wal.sync_time").value_or(0),
                  2.0 * probe::find(d, "wal.sync").value_or(1) * 0.999);
    }
}

TEST(SyncDelay, NSyncsOfARealServerAreCountedAsN) {
    check_sync_counts(support::cluster_options(), support::test_server().installation().major);
}

/// The same in every major of the release cache (11-18 are published; tests never download).
TEST(SyncDelay, FetchedReleases) {
    std::set<int> done = {support::test_server().installation().major};
    for (const server::Installation& inst : server::list_installations()) {
        if (inst.origin != "cache" || !done.insert(inst.major).second) {
            continue;
        }
        server::ClusterOptions o;
        o.bin_dir = inst.bin_dir;
        check_sync_counts(std::move(o), inst.major);
    }
    if (done.size() == 1) {
        GTEST_SKIP() << "no release of another major version in " << server::release_cache_dir()
                     << " (pglab server fetch 17)";
    }
}

TEST(SyncDelay, AServerWithoutTheOptionHasNoSyncProbes) {
    pglab::pg::Connection conn = support::connect(support::test_server());
    probe::ProbeContext ctx;
    ctx.sync_counts_file = support::test_server().sync_counts_file();
    auto s = probe::take_snapshot(conn, ctx);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->find("sync.calls"), nullptr);
    EXPECT_FALSE(server::has_library_mapped(support::test_server().server_pid(),
                                            server::k_sync_delay_library_name));
}

TEST(MemoryLimit, TheServerRunsInItsCgroupWithTheLimit) {
    if (const pglab::Status ok = server::MemoryCgroup::check_available(); !ok) {
        GTEST_SKIP() << ok.error().message;
    }
    pglab::lab::server::ClusterOptions o = support::cluster_options();
    constexpr std::uint64_t k_limit = 256ULL << 20;
    o.memory_limit_bytes = k_limit;
    auto cluster = server::ThrowawayCluster::create(std::move(o));
    ASSERT_TRUE(cluster) << cluster.error().message;
    ASSERT_TRUE(cluster->memory_cgroup());
    const server::MemoryCgroup cg = *cluster->memory_cgroup();
    EXPECT_EQ(cg.limit_bytes, k_limit); // a whole number of pages: kept as given

    // The postmaster and every process it started are in the cgroup.
    pglab::pg::Connection conn = support::connect(*cluster);
    ASSERT_TRUE(conn.valid());
    auto backend = conn.exec("SELECT pg_backend_pid()");
    ASSERT_TRUE(backend);
    std::ifstream procs(cg.procs_file());
    std::set<std::string> members;
    for (std::string pid; procs >> pid;) {
        members.insert(pid);
    }
    EXPECT_TRUE(members.count(std::to_string(cluster->server_pid())));
    EXPECT_TRUE(members.count(backend->value(0, 0)));

    probe::ProbeContext ctx;
    ctx.memory_cgroup_dir = cg.dir;
    auto s = probe::take_snapshot(conn, ctx);
    ASSERT_TRUE(s);
    ASSERT_TRUE(s->find("server.memory_limit_bytes"));
    EXPECT_EQ(s->find("server.memory_limit_bytes")->value, static_cast<double>(k_limit));
    ASSERT_TRUE(s->find("server.memory_peak_bytes"));
    EXPECT_GT(s->find("server.memory_peak_bytes")->value, 0);
    EXPECT_LE(s->find("server.memory_peak_bytes")->value, static_cast<double>(k_limit));

    // Removing the cluster removes the cgroup.
    conn = pglab::pg::Connection();
    ASSERT_TRUE(cluster->remove());
    EXPECT_FALSE(fs::exists(cg.dir));
}

} // namespace
