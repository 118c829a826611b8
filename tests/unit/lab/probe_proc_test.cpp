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
