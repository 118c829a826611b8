// `pglab run` end to end, through the pglab binary: a small experiment with a setting needing a
// restart and one not (plan, restarts, every results.jsonl line, cleanup), SIGKILL mid-plan then
// --resume, and a bad experiment file refused before anything starts.
#include "lab/store/results_store.hpp"
#include "support/files.hpp"
#include "support/processes.hpp"
#include "support/run_command.hpp"
#include "support/wait.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "lab_test_dir.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;

// 4 cells (shared_buffers needs a restart, work_mem a reload) x 2 repetitions, 1-second runs. As
// written: 16MB/4MB/c1, 16MB/8MB/c2 (reload), 32MB/4MB/c1 (restart), 32MB/8MB/c2 (reload).
constexpr const char* k_run_experiment = R"toml(name = "lab-e2e"
repeat = 2

[matrix]
settings.shared_buffers = ["16MB", "32MB"]
settings.work_mem = ["4MB", "8MB"]
clients = [1, 2]
scale = 1
duration = 1
filter = "(settings.work_mem == '4MB') == (clients == 1)"

[[steps]]
type = "init"
once = true
options = ["--quiet"]

[[steps]]
type = "bench"
options = ["--jobs=1"]

[[steps]]
type = "timed-sql"
name = "vacuum"
sql = "VACUUM pgbench_accounts"

[[steps]]
type = "explain"
sql = "SELECT aid FROM pgbench_accounts WHERE aid < 100"
expect_plan = "Index Only Scan"

[[steps]]
type = "sql"
sql = "SELECT current_setting('work_mem')"
expect = "${settings.work_mem}"
)toml";

using LabRun = support::LabTestDir;

void check_line(const nlohmann::json& l) {
    EXPECT_EQ(l["version"], "pglab.run/1");
    EXPECT_EQ(l["status"], "ok") << l.dump();
    EXPECT_TRUE(l["error"].is_null());
    EXPECT_EQ(l["seed"].is_number(), true);
    const auto& v = l["values"];
    EXPECT_EQ(l["server"]["settings"]["shared_buffers"], v["settings.shared_buffers"]);
    EXPECT_EQ(l["server"]["settings"]["work_mem"], v["settings.work_mem"]);
    EXPECT_EQ(l["server"]["requested"]["work_mem"], v["settings.work_mem"]);
    EXPECT_EQ(l["server"]["version_num"].get<int>() / 10000 >= 11, true);
    const auto& t = l["timings"];
    // How small the overhead is, is measured by bench/lab-overhead; here only that it is counted.
    EXPECT_GE(t["overhead_ms"].get<double>(), 0.0) << t.dump();
    EXPECT_GE(t["steps_ms"].get<double>(), 1000.0); // the bench step's duration at least
    const auto& steps = l["steps"];
    ASSERT_EQ(steps.size(), 5u);
    const auto& bench = steps[1];
    EXPECT_EQ(bench["status"], "ok");
    EXPECT_EQ(bench["exit_status"], 0);
    EXPECT_EQ(bench["bench"]["version"], "pglab.bench/1");
    EXPECT_EQ(bench["bench"]["options"]["clients"], v["clients"]);
    EXPECT_GT(bench["bench"]["totals"]["transactions"].get<long long>(), 0);
    EXPECT_TRUE(bench["probes"].is_object());
    EXPECT_GT(bench["probes"].value("wal.bytes", 0.0), 0.0) << bench["probes"].dump();
    // Each probe with the unit it was read in.
    EXPECT_EQ(bench["probe_units"].value("wal.bytes", ""), "bytes") << bench.dump();
    EXPECT_EQ(bench["probe_units"].value("elapsed_s", ""), "s") << bench.dump();
    const auto& vacuum = steps[2];
    EXPECT_EQ(vacuum["key"], "vacuum");
    EXPECT_EQ(vacuum["status"], "ok") << vacuum.dump();
    // Both times are measured; they are not compared: the server's closing timestamp comes
    // after the client has the statement's result, by however long a loaded machine takes to
    // run the next statement (more than a millisecond under a parallel test run).
    EXPECT_GT(vacuum["client_ms"].get<double>(), 0.0);
    EXPECT_GE(vacuum["server_ms"].get<double>(), 0.0);
    const auto& explain = steps[3];
    EXPECT_EQ(explain["status"], "ok") << explain.dump();
    EXPECT_EQ(explain["explain"]["node_types"][0], "Index Only Scan");
    EXPECT_TRUE(explain["explain"]["execution_ms"].is_number());
    EXPECT_EQ(steps[4]["result"], v["settings.work_mem"]);
}

TEST_F(LabRun, EndToEndPlanRestartsLinesAndCleanup) {
    const fs::path file = write("e2e.toml", k_run_experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_NE(r.out.find("results: " + results.string()), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("restarts: default: 1;"), std::string::npos) << r.err;

    std::ifstream pf(results / "plan.json");
    const nlohmann::json plan = nlohmann::json::parse(pf);
    EXPECT_EQ(plan["order"], "as-written");
    ASSERT_EQ(plan["cells"].size(), 4u);
    ASSERT_EQ(plan["runs"].size(), 8u);
    EXPECT_TRUE(fs::exists(results / "experiment.toml"));
    EXPECT_TRUE(plan["pglab_version"].is_string() && !plan["pglab_version"].empty());
    // The commit pglab was built from (this checkout's, when it is one), so a stored result
    // names the code that made it.
    const auto head =
        support::run_command({"git", "-C", PGLAB_SOURCE_DIR, "rev-parse", "--short=12", "HEAD"});
    if (head.exit_code == 0) {
        ASSERT_TRUE(plan.contains("pglab_commit")) << plan.dump();
        const std::string commit = plan["pglab_commit"];
        EXPECT_EQ(commit.substr(0, 12), head.out.substr(0, 12)) << commit;
        EXPECT_TRUE(commit.size() == 12 || commit.substr(12) == "-modified") << commit;
    } else {
        EXPECT_FALSE(plan.contains("pglab_commit")) << plan.dump();
    }
    // The orchestrator's messages are kept with the results, as printed on stderr.
    const std::string log_text = support::read_file(results / "pglab.log");
    EXPECT_NE(log_text.find("restarts: default: 1;"), std::string::npos) << log_text;

    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 8u);
    int restarts = 0;
    for (std::size_t i = 0; i < ls.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(ls[i]["run"], plan["runs"][i]["run"]);
        EXPECT_EQ(ls[i]["cell"], plan["runs"][i]["cell"]);
        EXPECT_EQ(ls[i]["repetition"], plan["runs"][i]["repetition"]);
        check_line(ls[i]);
        restarts += ls[i]["timings"]["restarts"].get<int>();
        // Each run started from a settled server: a CHECKPOINT, then nothing else running.
        ASSERT_TRUE(ls[i].contains("settle")) << ls[i].dump();
        EXPECT_EQ(ls[i]["settle"]["settled"], true) << ls[i]["settle"].dump();
        EXPECT_TRUE(ls[i]["settle"]["busy"].is_null());
        EXPECT_GE(ls[i]["settle"]["checkpoint_ms"].get<double>(), 0.0);
        // init runs once (one cluster, scale 1), skipped afterwards; it is setup, run before
        // the run settles, so that its writes are not in the measured steps
        EXPECT_EQ(ls[i]["steps"][0]["status"], i == 0 ? "ok" : "skipped");
        if (i == 0) {
            EXPECT_EQ(ls[i]["settle"]["after"], nlohmann::json::array({"0:init"}));
        } else {
            EXPECT_FALSE(ls[i]["settle"].contains("after")) << ls[i]["settle"].dump();
        }
        EXPECT_TRUE(fs::exists(results / ls[i]["steps"][1]["log"].get<std::string>()));
    }
    EXPECT_EQ(restarts, 1);
    EXPECT_EQ(ls[4]["timings"]["restarts"], 1); // the first 32MB run
    EXPECT_TRUE(fs::exists(results / "servers/default/1-postgresql.log"));
    expect_clean();
}

TEST_F(LabRun, SigkillMidPlanThenResume) {
    const fs::path file = write("e2e.toml", k_run_experiment);
    const fs::path results = m_dir / "results";
    const std::string bin = support::pglab_binary();
    const std::string tmpdir = "TMPDIR=" + m_tmp.string();
    std::vector<std::string> args = {bin, "run", file.string(), "--results", results.string()};
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    std::vector<std::string> env_store = {tmpdir, "PATH=/usr/bin:/bin", "LC_ALL=C"};
    std::vector<char*> envp;
    for (auto& e : env_store) {
        envp.push_back(e.data());
    }
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), envp.data()), 0);
    posix_spawn_file_actions_destroy(&fa);
    // Kill it mid-plan, in the middle of a later run: once two runs are recorded and the third
    // has begun (its directory of raw logs exists).
    EXPECT_TRUE(support::wait_until([&] {
        auto c = pglab::lab::store::read_results(results / "results.jsonl");
        return c && c->runs.size() >= 2 && fs::exists(results / "runs" / "0002");
    }));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    const auto before = lines(results);
    ASSERT_GE(before.size(), 2u);
    ASSERT_LT(before.size(), 8u);
    // A torn line, as a SIGKILL during a write would leave.
    std::ofstream(results / "results.jsonl", std::ios::app) << R"({"version":"pglab.run/1","ru)";

    const auto r = support::run_command({bin, "run", "--resume", results.string()}, env());
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_NE(r.err.find("incomplete last line"), std::string::npos) << r.err;
    const auto after = lines(results);
    ASSERT_EQ(after.size(), 8u);
    std::set<std::size_t> runs;
    for (std::size_t i = 0; i < after.size(); ++i) {
        if (i < before.size()) {
            EXPECT_EQ(after[i], before[i]) << "a finished line changed";
        }
        runs.insert(after[i]["run"].get<std::size_t>());
        EXPECT_EQ(after[i]["status"], "ok");
    }
    EXPECT_EQ(runs.size(), 8u) << "a run repeated or lost";
    expect_clean();
}

TEST_F(LabRun, BadFileGivesPositionAndStartsNothing) {
    const fs::path file = write("bad.toml", "name = \"bad\"\n[matrix]\nclinets = [1, 2]\n\n"
                                            "[[steps]]\ntype = \"bench\"\n");
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_NE(r.err.find(file.string() + ":3:1:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("clients"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(results));
    EXPECT_TRUE(fs::is_empty(m_tmp));

    // An unknown setting name: refused before any run, checked against the installation.
    const fs::path bad_setting =
        write("bad_setting.toml", "[matrix]\nsettings.shared_bufers = [\"16MB\"]\n\n"
                                  "[[steps]]\ntype = \"bench\"\n");
    const auto r2 = support::run_command(
        {support::pglab_binary(), "run", bad_setting.string(), "--results", results.string()},
        env());
    EXPECT_EQ(r2.exit_code, 1) << support::describe(r2);
    EXPECT_NE(r2.err.find(bad_setting.string() + ":2:10:"), std::string::npos) << r2.err;
    EXPECT_NE(r2.err.find("shared_buffers"), std::string::npos) << r2.err;
    EXPECT_FALSE(fs::exists(results));
    expect_clean();
}

} // namespace
