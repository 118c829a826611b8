// The fleet with real MPI on this machine: `mpirun --oversubscribe -n 3 pglab bench` against the
// test server. Skipped (with the reason) when mpirun is absent or pglab was built without MPI.
#include "stats/latency_histogram.hpp"
#include "support/background.hpp"
#include "support/compat.hpp"
#include "support/files.hpp"
#include "support/run_command.hpp"
#include "support/test_server.hpp"
#include "support/wait.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fleet/launcher.hpp"

namespace {

namespace fs = std::filesystem;
using support::CommandResult;

std::string find_mpirun() {
    for (const char* dir : {"/usr/bin", "/usr/local/bin"}) {
        const fs::path p = fs::path(dir) / "mpirun";
        if (fs::exists(p)) {
            return p.string();
        }
    }
    return {};
}

/// OpenMPI's session directories under one of this test process's own: two mpiruns of tests run
/// in parallel that create the shared /tmp/ompi.HOST.UID at the same moment fail ("File exists").
struct SessionDirBase {
    fs::path dir = fs::temp_directory_path() / ("pglab-ompi-" + std::to_string(::getpid()));

    SessionDirBase() { fs::create_directories(dir); }

    ~SessionDirBase() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

std::string session_dir_base() {
    static const SessionDirBase base;
    return base.dir.string();
}

std::vector<std::string> mpirun_argv(int processes, const std::vector<std::string>& bench_args) {
    std::vector<std::string> argv{find_mpirun(), "--oversubscribe",         "--allow-run-as-root",
                                  "--mca",       "orte_tmpdir_base",        session_dir_base(),
                                  "-n",          std::to_string(processes), support::pglab_binary(),
                                  "bench"};
    for (const std::string& a : support::server_args()) {
        argv.push_back(a);
    }
    argv.insert(argv.end(), bench_args.begin(), bench_args.end());
    argv.push_back("postgres");
    return argv;
}

CommandResult run_fleet(int processes, const std::vector<std::string>& bench_args) {
    return support::run_command(mpirun_argv(processes, bench_args));
}

long long processed(const std::string& out) {
    std::smatch m;
    static const std::regex re("number of transactions actually processed: ([0-9]+)");
    return std::regex_search(out, m, re) ? std::stoll(m[1]) : -1;
}

int occurrences(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
        ++n;
    }
    return n;
}

nlohmann::json read_json(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

class FleetTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (find_mpirun().empty() || !pglab::fleet::built_with_mpi()) {
            return;
        }
        auto r =
            support::run_command({support::pglab_binary(), "bench", "-i", "-s", "1", "-q", "-h",
                                  support::server_args()[1], "-p", support::server_args()[3], "-U",
                                  support::server_args()[5], "postgres"});
        ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    }

    void SetUp() override {
        if (find_mpirun().empty()) {
            GTEST_SKIP() << "mpirun is not installed (Debian: openmpi-bin; scripts/bootstrap)";
        }
        if (!pglab::fleet::built_with_mpi()) {
            GTEST_SKIP() << "pglab was built without MPI (PGLAB_MPI, libopenmpi-dev)";
        }
        std::string templ = (fs::temp_directory_path() / "pglab-fleet-XXXXXX").string();
        ASSERT_NE(::mkdtemp(templ.data()), nullptr);
        m_dir = templ;
    }

    void TearDown() override {
        if (!m_dir.empty()) {
            fs::remove_all(m_dir);
        }
    }

    fs::path m_dir;
};

TEST_F(FleetTest, TransactionsOfTAreClientsTimesTransactions) {
    const CommandResult r = run_fleet(3, {"-c", "4", "-t", "15", "-n", "-S"});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_EQ(occurrences(r.out, "transaction type:"), 1) << r.out; // one report, by rank 0
    EXPECT_NE(r.out.find("number of clients: 4\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("number of threads: 3\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("number of transactions actually processed: 60/60\n"), std::string::npos)
        << r.out;
}

TEST_F(FleetTest, MergedPercentilesEqualThoseOfTheConcatenatedLogs) {
    const fs::path export_path = m_dir / "run.json";
    const CommandResult r =
        run_fleet(3, {"-c", "3", "-t", "40", "-n", "-S", "-l", "--log-prefix",
                      (m_dir / "log").string(), "--export-json", export_path.string()});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    pglab::stats::LatencyHistogram from_logs;
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(m_dir)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("log.", 0) != 0) {
            continue;
        }
        names.insert(name);
        std::ifstream in(entry.path());
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream fields(line);
            long long client = 0, tx = 0, latency = 0;
            fields >> client >> tx >> latency;
            from_logs.record(latency);
        }
    }
    // One file per process, named PREFIX.HOST.RANK.PID: no two processes share a name.
    ASSERT_EQ(names.size(), 3u);
    for (int rank = 0; rank < 3; ++rank) {
        const std::regex re("log\\.[^.]+(\\.[^.]+)*\\." + std::to_string(rank) + "\\.[0-9]+");
        EXPECT_EQ(std::count_if(names.begin(), names.end(),
                                [&re](const std::string& n) { return std::regex_match(n, re); }),
                  1)
            << "rank " << rank;
    }
    const nlohmann::json doc = read_json(export_path);
    const nlohmann::json& latency = doc.at("latency");
    EXPECT_EQ(latency.at("count").get<int64_t>(), 120);
    EXPECT_EQ(from_logs.count(), 120);
    for (const auto& [key, value] : latency.at("percentiles_us").items()) {
        const double p = std::stod(key.substr(1));
        EXPECT_EQ(value.get<int64_t>(), from_logs.value_at_percentile(p)) << key;
    }
    EXPECT_EQ(latency.at("encoded").get<std::string>(), from_logs.serialize());
    const nlohmann::json& processes = doc.at("fleet").at("processes");
    ASSERT_EQ(processes.size(), 3u);
    for (const nlohmann::json& p : processes) {
        EXPECT_EQ(p.at("clients").get<int>(), 1);
        EXPECT_EQ(p.at("transactions").get<int64_t>(), 40);
        EXPECT_FALSE(p.at("lost").get<bool>());
        EXPECT_FALSE(p.at("host").get<std::string>().empty());
    }
}

TEST_F(FleetTest, ProgressIntervalsAddUpToTheTotal) {
    const CommandResult r = run_fleet(3, {"-c", "3", "-T", "2", "-P", "1", "-n", "-S"});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    static const std::regex line_re("progress: ([0-9.]+) s, ([0-9.]+) tps");
    long long sum = 0;
    int lines = 0;
    for (std::sregex_iterator it(r.err.begin(), r.err.end(), line_re), end; it != end; ++it) {
        ++lines;
        EXPECT_DOUBLE_EQ(std::stod((*it)[1]), lines); // aligned intervals of 1.0 s
        sum += std::llround(std::stod((*it)[2]) * 1.0);
    }
    EXPECT_EQ(lines, 2) << r.err;
    EXPECT_EQ(sum, processed(r.out)) << r.err << r.out;
}

TEST_F(FleetTest, OneProcessUnderMpirunIsAPlainRun) {
    const std::vector<std::string> args{"-c", "2", "-t", "10", "-n", "-S", "--random-seed=7"};
    const CommandResult fleet = run_fleet(1, args);
    std::vector<std::string> plain{support::pglab_binary(), "bench"};
    for (const std::string& a : support::server_args()) {
        plain.push_back(a);
    }
    plain.insert(plain.end(), args.begin(), args.end());
    plain.push_back("postgres");
    const CommandResult single = support::run_command(plain);
    ASSERT_EQ(single.exit_code, 0) << support::describe(single);
    EXPECT_TRUE(support::same_behaviour(single, fleet));
}

TEST_F(FleetTest, BadCombinationsGetPgbenchStyleMessages) {
    CommandResult r = run_fleet(3, {"-c", "2", "-t", "1", "-n", "-S"});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(occurrences(r.err, "number of processes (3) must not exceed number of clients (2)"),
              1)
        << r.err;
    EXPECT_EQ(r.out.find("transaction type:"), std::string::npos);
    r = run_fleet(3, {"-c", "8", "-j", "4", "-t", "1", "-n", "-S"});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("number of threads (4) must be a multiple of number of processes (3)"),
              std::string::npos)
        << r.err;
}

TEST_F(FleetTest, AnUnreachableHostFailsBeforeTheStart) {
    std::vector<std::string> argv = mpirun_argv(2, {"-c", "2", "-t", "1", "-n", "-S"});
    argv.insert(argv.begin() + 1, {"--host", "localhost,pglab-no-such-host.invalid"});
    const CommandResult r = support::run_command(argv);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(r.out.find("transaction type:"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("ORTE"), std::string::npos) << r.err; // mpirun's own reason
}

/// The pid of the pglab process of rank `rank` whose command line holds `marker`, 0 when none.
pid_t find_rank(int rank, const std::string& marker) {
    const std::string want = "OMPI_COMM_WORLD_RANK=" + std::to_string(rank);
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        std::ifstream cmd(entry.path() / "cmdline");
        std::string cmdline((std::istreambuf_iterator<char>(cmd)), {});
        if (cmdline.find(marker) == std::string::npos
            || cmdline.find(support::pglab_binary()) == std::string::npos) {
            continue;
        }
        std::ifstream env(entry.path() / "environ");
        std::string var;
        while (std::getline(env, var, '\0')) {
            if (var == want) {
                return static_cast<pid_t>(std::stol(name));
            }
        }
    }
    return 0;
}

TEST_F(FleetTest, AKilledProcessEndsTheRunWithAReportNamingIt) {
    const fs::path out = m_dir / "out";
    const fs::path export_path = m_dir / "run.json";
    std::string command;
    for (const std::string& a : mpirun_argv(
             3, {"-c", "3", "-T", "600", "-n", "-S", "--export-json", export_path.string()})) {
        command += "'" + a + "' ";
    }
    support::Background run({"/bin/sh", "-c", command + "> '" + out.string() + "'"}, m_dir,
                            m_dir / "err");
    ASSERT_GT(run.pid(), 0);
    // Every rank past the start: each client has run the script's query (a session that ran only
    // the set-up's queries may still wait for the other ranks, and a kill then ends the run
    // before it started, with no report).
    ASSERT_TRUE(support::wait_for_sql(
        support::test_server(), "SELECT count(*) >= 3 FROM pg_stat_activity WHERE "
                                "application_name = 'pgbench' AND query LIKE 'SELECT abalance%'"));
    pid_t victim = 0;
    ASSERT_TRUE(
        support::wait_until([&] { return (victim = find_rank(1, export_path.string())) > 0; }));
    ASSERT_EQ(::kill(victim, SIGKILL), 0);
    const int status = run.wait();
    ASSERT_NE(status, -1) << "the fleet did not end";
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) != 0) << status;
    const std::string report = support::read_file(out);
    const std::string err = support::read_file(m_dir / "err");
    EXPECT_NE(report.find("number of transactions actually processed: "), std::string::npos)
        << report << err;
    EXPECT_NE(err.find("lost process 1 on "), std::string::npos) << err;
    EXPECT_NE(err.find("Run was aborted; the above results are incomplete."), std::string::npos)
        << err;
    const nlohmann::json doc = read_json(export_path);
    EXPECT_TRUE(doc.at("fleet").at("processes").at(1).at("lost").get<bool>());
    EXPECT_FALSE(doc.at("fleet").at("processes").at(0).at("lost").get<bool>());
}

TEST(FleetWithoutMpi, ABuildWithoutMpiSaysSoUnderALauncher) {
    if (pglab::fleet::built_with_mpi()) {
        GTEST_SKIP()
            << "this pglab was built with MPI (configure with -DPGLAB_MPI=OFF to test this)";
    }
    const CommandResult r = support::run_command({support::pglab_binary(), "bench", "-t", "1"},
                                                 {{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("built without MPI"), std::string::npos) << r.err;
}

} // namespace
