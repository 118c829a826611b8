// lab/probe: parsing /proc/<pid>/stat lines, summing a process tree from a fake /proc, LSNs,
// and diff() of snapshots (counters, levels, resets, a changed postmaster).
#include "lab/probe/probe.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace pglab::lab::probe {
namespace {

namespace fs = std::filesystem;

std::string stat_line(int pid, const std::string& comm, int ppid, int utime, int stime, int cutime,
                      int cstime) {
    // Fields 1..17 as in proc(5), then a tail of more numbers.
    return std::to_string(pid) + " (" + comm + ") S " + std::to_string(ppid)
           + " 100 100 0 -1 4194560 300 0 0 0 " + std::to_string(utime) + " "
           + std::to_string(stime) + " " + std::to_string(cutime) + " " + std::to_string(cstime)
           + " 20 0 1 0 12345 225000000 5000 18446744073709551615\n";
}

TEST(ProbeProcStat, ParsesTheCpuFields) {
    const std::optional<ProcStat> st =
        parse_proc_stat(stat_line(4242, "postgres", 4200, 11, 22, 33, 44));
    ASSERT_TRUE(st);
    EXPECT_EQ(st->pid, 4242);
    EXPECT_EQ(st->ppid, 4200);
    EXPECT_EQ(st->utime, 11U);
    EXPECT_EQ(st->stime, 22U);
    EXPECT_EQ(st->cutime, 33);
    EXPECT_EQ(st->cstime, 44);
}

TEST(ProbeProcStat, CommandWithSpacesAndParentheses) {
    const std::optional<ProcStat> st =
        parse_proc_stat(stat_line(7, "postgres: wal (writer) ) x", 6, 1, 2, 3, 4));
    ASSERT_TRUE(st);
    EXPECT_EQ(st->ppid, 6);
    EXPECT_EQ(st->utime, 1U);
    EXPECT_EQ(st->cstime, 4);
}

TEST(ProbeProcStat, RejectsMalformedLines) {
    EXPECT_FALSE(parse_proc_stat(""));
    EXPECT_FALSE(parse_proc_stat("12 postgres S 1 2 3"));
    EXPECT_FALSE(parse_proc_stat("12 (postgres) S 1 2 3"));
    EXPECT_FALSE(parse_proc_stat("x (postgres) S 1 100 100 0 -1 0 0 0 0 0 1 2 3 4 20"));
}

TEST(ProbeProcStat, ReadsThisProcess) {
    std::ifstream in("/proc/self/stat");
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    const std::optional<ProcStat> st = parse_proc_stat(line);
    ASSERT_TRUE(st);
    EXPECT_EQ(st->ppid, ::getppid());
}

class FakeProc : public ::testing::Test {
protected:
    void SetUp() override {
        m_root = fs::temp_directory_path() / ("pglab-fake-proc-" + std::to_string(::getpid()));
        fs::remove_all(m_root);
        fs::create_directories(m_root / "self");
    }

    void TearDown() override { fs::remove_all(m_root); }

    void add(int pid, int ppid, int utime, int stime, int cutime, int cstime) {
        fs::create_directories(m_root / std::to_string(pid));
        std::ofstream(m_root / std::to_string(pid) / "stat")
            << stat_line(pid, "postgres", ppid, utime, stime, cutime, cstime);
    }

    fs::path m_root;
};

TEST_F(FakeProc, SumsThePostmasterItsReapedAndItsLiveChildren) {
    const double hz = static_cast<double>(::sysconf(_SC_CLK_TCK));
    add(100, 1, 10, 20, 1000, 2000); // postmaster: own + reaped (exited backends)
    add(101, 100, 1, 2, 0, 0);       // checkpointer
    add(102, 100, 3, 4, 5, 6);       // backend with a reaped child of its own
    add(200, 1, 500, 500, 0, 0);     // an unrelated process
    add(201, 101, 70, 70, 0, 0);     // a grandchild: counted once it is reaped, not before
    const std::optional<CpuTimes> t = server_cpu_times(100, m_root);
    ASSERT_TRUE(t);
    EXPECT_DOUBLE_EQ(t->user_s, (10 + 1000 + 1 + 3 + 5) / hz);
    EXPECT_DOUBLE_EQ(t->system_s, (20 + 2000 + 2 + 4 + 6) / hz);
}

TEST_F(FakeProc, AbsentPostmasterGivesNothing) {
    EXPECT_FALSE(server_cpu_times(100, m_root));
    EXPECT_FALSE(server_cpu_times(0, m_root));
}

// Other benchmarks: pglab and pgbench processes that are neither this one nor started by it.
TEST_F(FakeProc, BenchmarkNeighboursAreOtherPglabsAndPgbenches) {
    const double hz = static_cast<double>(::sysconf(_SC_CLK_TCK));
    const auto named = [&](int pid, int ppid, const std::string& comm, int utime) {
        add(pid, ppid, utime, 0, 0, 0);
        std::ofstream(m_root / std::to_string(pid) / "comm") << comm << "\n";
    };
    named(10, 1, "pglab", 100);    // this process
    named(11, 10, "pglab", 50);    // one it started (a fleet rank, say)
    named(12, 11, "pgbench", 50);  // and one that one started
    named(20, 1, "pglab", 300);    // another pglab run
    named(30, 1, "pgbench", 40);   // another benchmark
    named(40, 1, "postgres", 999); // not a benchmark
    const std::vector<Neighbour> before = benchmark_neighbours(10, m_root);
    ASSERT_EQ(before.size(), 2U);
    EXPECT_EQ(before[0].pid, 20);
    EXPECT_EQ(before[0].command, "pglab");
    EXPECT_DOUBLE_EQ(before[0].cpu_s, 300 / hz);
    EXPECT_EQ(before[1].pid, 30);
    named(20, 1, "pglab", 300 + static_cast<int>(5 * hz)); // 5 s more
    named(31, 1, "pgbench", static_cast<int>(2 * hz));     // started meanwhile: 2 s
    const auto used = neighbour_cpu_since(before, benchmark_neighbours(10, m_root), 0.5);
    EXPECT_EQ(used, (std::vector<std::string>{"pglab (pid 20): 5.0 s of CPU",
                                              "pgbench (pid 31): 2.0 s of CPU"}));
}

TEST(ProbeHostCpu, BusyIsEveryProcessesAndStealApart) {
    const double hz = static_cast<double>(::sysconf(_SC_CLK_TCK));
    // user nice system idle iowait irq softirq steal guest guest_nice
    const auto host = parse_host_cpu("cpu  100 10 50 9000 20 5 15 40 0 0");
    ASSERT_TRUE(host);
    EXPECT_DOUBLE_EQ(host->busy_s, (100 + 10 + 50) / hz);
    EXPECT_DOUBLE_EQ(host->steal_s, 40 / hz);
    EXPECT_FALSE(parse_host_cpu("cpu0 1 2 3 4 5 6 7 8"));
    EXPECT_FALSE(parse_host_cpu("cpu  1 2 3"));
    ASSERT_TRUE(host_cpu_times()); // this machine's
    EXPECT_GT(host_cpu_times()->cpus, 0);
}

TEST(ProbeClientCpu, GrowsWithWork) {
    const CpuTimes before = client_cpu_times();
    volatile double x = 0;
    for (int i = 0; i < 20'000'000; ++i) {
        x = x + 1.0 / (i + 1);
    }
    const CpuTimes after = client_cpu_times();
    EXPECT_GT(after.user_s + after.system_s, before.user_s + before.system_s);
}

TEST(ProbeLsn, Parses) {
    EXPECT_EQ(parse_lsn("0/0"), 0ULL);
    EXPECT_EQ(parse_lsn("16/B374D848"), 0x16B374D848ULL);
    EXPECT_EQ(parse_lsn("FFFFFFFF/FFFFFFFF"), 0xFFFFFFFFFFFFFFFFULL);
    EXPECT_FALSE(parse_lsn(""));
    EXPECT_FALSE(parse_lsn("16"));
    EXPECT_FALSE(parse_lsn("/1"));
    EXPECT_FALSE(parse_lsn("1/"));
    EXPECT_FALSE(parse_lsn("1/G"));
    EXPECT_FALSE(parse_lsn("100000000/0"));
}

Snapshot snapshot_of(std::vector<Sample> samples, pid_t postmaster, double at_s) {
    Snapshot s;
    s.samples = std::move(samples);
    s.postmaster_pid = postmaster;
    s.taken_at = std::chrono::steady_clock::time_point(
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(at_s)));
    return s;
}

TEST(ProbeDiff, CountersLevelsAndOrder) {
    const Snapshot before = snapshot_of({{"wal.bytes", 1000, "bytes", Kind::counter},
                                         {"wal.segment_files", 3, "count", Kind::level},
                                         {"db.xact_commit", 10, "count", Kind::counter},
                                         {"server.cpu_s", 1.5, "s", Kind::counter}},
                                        100, 10);
    const Snapshot after = snapshot_of({{"wal.bytes", 5096, "bytes", Kind::counter},
                                        {"wal.segment_files", 5, "count", Kind::level},
                                        {"wal.records", 7, "count", Kind::counter},
                                        {"db.xact_commit", 15, "count", Kind::counter},
                                        {"server.cpu_s", 2.0, "s", Kind::counter}},
                                       100, 12.5);
    const Deltas d = diff(before, after);
    ASSERT_EQ(d.size(), 5U);
    EXPECT_EQ(d[0].name, "elapsed_s");
    EXPECT_DOUBLE_EQ(d[0].value, 2.5);
    EXPECT_EQ(d[1].name, "wal.bytes");
    EXPECT_DOUBLE_EQ(d[1].value, 4096);
    EXPECT_EQ(d[1].unit, "bytes");
    EXPECT_EQ(d[2].name, "wal.segment_files");
    EXPECT_DOUBLE_EQ(d[2].value, 5);
    EXPECT_EQ(d[3].name, "db.xact_commit");
    EXPECT_DOUBLE_EQ(*find(d, "server.cpu_s"), 0.5);
    EXPECT_FALSE(find(d, "wal.records")); // only in one snapshot
}

TEST(ProbeDiff, SharesOfTheStepsTime) {
    // 2 s on 2 CPUs: 4 CPU-seconds; the server used 0.6 of them, the machine 1.2.
    const Snapshot before = snapshot_of({{"server.cpu_s", 4.0, "s", Kind::counter},
                                         {"host.cpu_s", 10.0, "s", Kind::counter},
                                         {"host.cpus", 2, "count", Kind::level}},
                                        100, 0);
    const Snapshot after = snapshot_of({{"server.cpu_s", 4.6, "s", Kind::counter},
                                        {"host.cpu_s", 11.2, "s", Kind::counter},
                                        {"host.cpus", 2, "count", Kind::level}},
                                       100, 2);
    const Deltas d = diff(before, after);
    EXPECT_NEAR(*find(d, "server.cpu_pct"), 15.0, 1e-9);
    EXPECT_NEAR(*find(d, "host.cpu_pct"), 30.0, 1e-9);
    // Another postmaster: its CPU is not the step's, nor is its share.
    const Deltas restarted = diff(before, snapshot_of(after.samples, 200, 2));
    EXPECT_FALSE(find(restarted, "server.cpu_pct"));
    EXPECT_NEAR(*find(restarted, "host.cpu_pct"), 30.0, 1e-9);
    // 300 ms of reads in a 2 s step: 15% of its time.
    const Deltas reads =
        diff(snapshot_of({{"db.blk_read_time", 100, "ms", Kind::counter}}, 100, 0),
             snapshot_of({{"db.blk_read_time", 400, "ms", Kind::counter}}, 100, 2));
    EXPECT_DOUBLE_EQ(*find(reads, "db.blk_read_time_pct"), 15.0);
    // Without the CPUs' count (an older line), no share.
    const Snapshot no_cpus = snapshot_of({{"host.cpu_s", 11.2, "s", Kind::counter}}, 100, 2);
    EXPECT_FALSE(find(diff(before, no_cpus), "host.cpu_pct"));
}

TEST(ProbeDiff, SegmentsSpannedAreThePapersCount) {
    // S4: 11.2's CREATE INDEX went from 0/7E000108 to 0/8801DE08 (11 segment files in pg_wal
    // after pg_resetwal left one), 12-devel's from 0/4F000110 to 0/5487B2C8 (6).
    const auto spanned = [](const char* from, const char* to) {
        Snapshot before = snapshot_of({}, 100, 0);
        Snapshot after = snapshot_of({}, 100, 1);
        before.insert_lsn = parse_lsn(from);
        after.insert_lsn = parse_lsn(to);
        after.wal_segment_size = 16ULL << 20;
        return find(diff(before, after), "wal.segments_spanned");
    };
    EXPECT_EQ(spanned("0/7E000108", "0/8801DE08"), 11.0);
    EXPECT_EQ(spanned("0/4F000110", "0/5487B2C8"), 6.0);
    EXPECT_EQ(spanned("0/4F000110", "0/4F000110"), 1.0); // nothing written: the one it is in
    EXPECT_FALSE(spanned("0/5000000", "0/4000000"));     // backwards: not reported
    Snapshot unknown = snapshot_of({}, 100, 0);          // no segment size read: none
    unknown.insert_lsn = 0;
    EXPECT_FALSE(find(diff(unknown, unknown), "wal.segments_spanned"));
}

TEST(ProbeDiff, ResetCountersAndAnotherPostmasterAreLeftOut) {
    const Snapshot before = snapshot_of(
        {{"db.xact_commit", 10, "count", Kind::counter}, {"server.cpu_s", 9, "s", Kind::counter}},
        100, 0);
    const Snapshot after = snapshot_of(
        {{"db.xact_commit", 2, "count", Kind::counter}, {"server.cpu_s", 10, "s", Kind::counter}},
        300, 1);
    const Deltas d = diff(before, after);
    EXPECT_FALSE(find(d, "db.xact_commit"));
    EXPECT_FALSE(find(d, "server.cpu_s"));
    EXPECT_TRUE(find(d, "elapsed_s"));
}

} // namespace
} // namespace pglab::lab::probe
