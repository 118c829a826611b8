// `pglab run` interrupted by SIGINT: while a step waits for a long statement, the statement is
// cancelled, pglab ends within seconds with status 2, the runs finished before are kept and the
// interrupted one gets no line, and no cluster is left. The same for an init, a sql and a bench
// step, each run again by --resume to an ok line; a second SIGINT while the clusters are being
// removed changes nothing. `pglab demo` stopped in its benchmark dies by the signal, as pgbench,
// and its throwaway cluster goes with it.
#include "support/background.hpp"
#include "support/processes.hpp"
#include "support/wait.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

/// How many backends of the clusters under `tmp` show `title` at the end of their command line
/// (" DO": in a DO block; pglab's own statements are never DO).
std::size_t backends_showing(const fs::path& tmp, const std::string& title) {
    const auto titles = support::command_lines_in(tmp);
    return static_cast<std::size_t>(std::count_if(titles.begin(), titles.end(), [&](const auto& t) {
        return t.size() > title.size()
               && t.compare(t.size() - title.size(), title.size(), title) == 0;
    }));
}

/// Whether a server log under `results` says that a shutdown was requested.
bool shutdown_logged(const fs::path& results) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(results, ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() <= 14 || name.compare(name.size() - 14, 14, "postgresql.log") != 0) {
            continue;
        }
        std::ifstream in(it->path());
        for (std::string line; std::getline(in, line);) {
            if (line.find("shutdown request") != std::string::npos) {
                return true;
            }
        }
    }
    return false;
}

class LabInterrupt : public support::LabTestDir {
protected:
    fs::path results() const { return m_dir / "results"; }

    fs::path err_file() const { return m_dir / "stderr.txt"; }

    /// `pglab run FILE --results results()` in the background, its stderr in err_file().
    std::unique_ptr<support::Background> start_run(const fs::path& file,
                                                   const std::vector<std::string>& env = {}) const {
        return std::make_unique<support::Background>(
            std::vector<std::string>{support::pglab_binary(), "run", file.string(), "--results",
                                     results().string()},
            m_tmp, err_file(), env);
    }

    /// Waits for `pglab` to end as an interrupted plan does: exit status 2, the hint to resume,
    /// no run said to have failed.
    void expect_interrupted_end(support::Background& pglab) const {
        const int status = pglab.wait();
        ASSERT_NE(status, -1) << "pglab run did not end after SIGINT";
        const std::string err_text = read_file(err_file());
        ASSERT_TRUE(WIFEXITED(status))
            << "ended by signal " << WTERMSIG(status) << ": " << err_text;
        EXPECT_EQ(WEXITSTATUS(status), 2) << err_text;
        EXPECT_NE(err_text.find("--resume"), std::string::npos) << err_text;
        EXPECT_EQ(err_text.find("failed:"), std::string::npos) << err_text;
    }
};

TEST_F(LabInterrupt, SigintCancelsTheStatementAndKeepsFinishedRuns) {
    // Run 0 is quick; run 1 sleeps 600 s in SQL, in a DO block.
    const fs::path file = write("interrupt.toml", R"toml(name = "lab-interrupt"
repeat = 2

[[steps]]
type = "sql"
sql = "SELECT 1"

[[steps]]
type = "sql"
sql = "DO $$ BEGIN PERFORM pg_sleep(600); END $$"
when = "run == 1"
)toml");
    const auto pglab = start_run(file);
    ASSERT_GT(pglab->pid(), 0);
    EXPECT_TRUE(support::wait_until([&] { return backends_showing(m_tmp, " DO") >= 1; }))
        << "run 1 never reached its pg_sleep";
    ASSERT_EQ(::kill(pglab->pid(), SIGINT), 0);
    // The statement has most of 600 s to go: ending before that is the cancel obeyed.
    expect_interrupted_end(*pglab);
    // Only backends still there are signalled: the server has no warning for the user about a
    // pid that is not a backend.
    EXPECT_EQ(read_file(err_file()).find("is not a PostgreSQL backend process"), std::string::npos)
        << read_file(err_file());

    const auto ls = lines(results());
    ASSERT_EQ(ls.size(), 1u);
    EXPECT_EQ(ls[0]["run"], 0);
    EXPECT_EQ(ls[0]["status"], "ok");
    expect_clean();
}

/// A one-run experiment whose step is busy (backends showing `title`, at least `count` of them)
/// long enough for a test to interrupt it, and short enough to be run again by --resume.
struct BusyStep {
    const char* kind;
    const char* experiment;
    const char* title;
    std::size_t count;
};

const BusyStep k_busy_steps[] = {
    // pgbench -i's COPY of 2 million accounts, cancelled by the init's own cancel request.
    {"init", R"toml(name = "interrupt-init"

[[steps]]
type = "init"
options = ["--scale=20"]
)toml",
     " COPY", 1},
    {"sql", R"toml(name = "interrupt-sql"

[[steps]]
type = "sql"
sql = "DO $$ BEGIN PERFORM pg_sleep(3); END $$"
)toml",
     " DO", 1},
    // Two clients of 100 transactions of 20 ms each: both in a SELECT most of the time.
    {"bench", R"toml(name = "interrupt-bench"

[scripts.slow]
text = "SELECT pg_sleep(0.02);"

[[steps]]
type = "bench"
options = ["--client=2", "--transactions=100", "--no-vacuum"]
scripts = ["slow"]
)toml",
     " SELECT", 2},
};

class LabInterruptStep : public LabInterrupt, public ::testing::WithParamInterface<BusyStep> {};

TEST_P(LabInterruptStep, IsRecordedInterruptedAndRunAgainOnResume) {
    const BusyStep& step = GetParam();
    const fs::path file = write("interrupt.toml", step.experiment);
    {
        const auto pglab = start_run(file);
        ASSERT_GT(pglab->pid(), 0);
        ASSERT_TRUE(support::wait_until([&] {
            return backends_showing(m_tmp, step.title) >= step.count;
        })) << "the "
            << step.kind << " step never got busy: " << read_file(err_file());
        ASSERT_EQ(::kill(pglab->pid(), SIGINT), 0);
        expect_interrupted_end(*pglab);
        EXPECT_TRUE(lines(results()).empty()) << "the interrupted run got a line";
        expect_clean();
    }

    const support::CommandResult resumed = support::run_command(
        {support::pglab_binary(), "run", "--resume", results().string()}, env());
    ASSERT_EQ(resumed.exit_code, 0) << support::describe(resumed);
    const auto ls = lines(results());
    ASSERT_EQ(ls.size(), 1u) << support::describe(resumed);
    EXPECT_EQ(ls[0]["run"], 0);
    EXPECT_EQ(ls[0]["status"], "ok") << ls[0].dump();
    expect_clean();
}

INSTANTIATE_TEST_SUITE_P(Steps, LabInterruptStep, ::testing::ValuesIn(k_busy_steps),
                         [](const auto& param_info) { return std::string(param_info.param.kind); });

/// The pid of a process under `tmp` whose command line ends with `title`; 0 when none.
pid_t backend_showing(const fs::path& tmp, const std::string& title) {
    for (const pid_t pid : support::processes_in(tmp)) {
        std::string line = support::command_line(pid);
        // An auxiliary process's title ends in a blank ("postgres: checkpointer ").
        while (!line.empty() && line.back() == ' ') {
            line.pop_back();
        }
        if (line.size() > title.size()
            && line.compare(line.size() - title.size(), title.size(), title) == 0) {
            return pid;
        }
    }
    return 0;
}

// A timed-sql step whose server crashes (a server process killed: the postmaster ends every
// session with a FATAL message, then restarts the server) ends, failed, naming the crash. (In
// bench/fault-campaign a crash 8 ms after such a step began left it reading its pipeline for
// ever: libpq answers null, never the sync, on a lost connection; the read now ends on a lost
// connection.) The restarted server's checkpointer is then held (SIGSTOP), as a machine busy
// writing holds its fsyncs: under make test's load the crash recovery and the shutdown checkpoint
// a fast shutdown waits for once took over 60 s. The cluster is thrown away, so pglab stops it
// with an immediate shutdown, which waits for neither.
TEST_F(LabInterrupt, ACrashDuringATimedSqlStepFailsItNamingTheCrash) {
    const fs::path file = write("crash.toml", R"toml(name = "timed-sql-crash"

[[steps]]
type = "timed-sql"
sql = "SELECT pg_sleep(60)"
)toml");
    // Its statement, not the probes before the step: a SELECT once the step has begun.
    const fs::path events = m_dir / "step-events";
    const auto pglab = start_run(file, {"PGLAB_STEP_EVENTS=" + events.string()});
    ASSERT_GT(pglab->pid(), 0);
    ASSERT_TRUE(support::wait_until([&] {
        return read_file(events).find(" begin ") != std::string::npos
               && backend_showing(m_tmp, " SELECT") > 0;
    })) << "the timed-sql step never got busy: "
        << read_file(err_file());
    // Not the statement's own backend: another server process, so that the postmaster ends the
    // statement's backend with SIGQUIT and a FATAL message, as a crash anywhere does.
    const pid_t checkpointer = backend_showing(m_tmp, "checkpointer");
    ASSERT_GT(checkpointer, 0);
    ASSERT_EQ(::kill(checkpointer, SIGKILL), 0);
    pid_t restarted = 0;
    ASSERT_TRUE(support::wait_until([&] {
        restarted = backend_showing(m_tmp, "checkpointer");
        return restarted > 0 && restarted != checkpointer;
    })) << "the postmaster started no new checkpointer: "
        << read_file(err_file());
    ASSERT_EQ(::kill(restarted, SIGSTOP), 0);
    const int status = pglab->wait();
    ASSERT_NE(status, -1) << "pglab run did not end after its server crashed";
    ASSERT_TRUE(WIFEXITED(status)) << read_file(err_file());
    EXPECT_EQ(WEXITSTATUS(status), 1) << read_file(err_file());
    const auto ls = lines(results());
    ASSERT_EQ(ls.size(), 1u);
    EXPECT_EQ(ls[0]["status"], "failed");
    EXPECT_NE(ls[0]["steps"][0]["error"].get<std::string>().find("crashed during the step"),
              std::string::npos)
        << ls[0].dump();
    expect_clean();
}

TEST_F(LabInterrupt, ASecondSigintWhileTheClustersAreRemovedChangesNothing) {
    const fs::path file = write("interrupt.toml", R"toml(name = "interrupt-twice"

[[steps]]
type = "sql"
sql = "DO $$ BEGIN PERFORM pg_sleep(600); END $$"
)toml");
    const auto pglab = start_run(file);
    ASSERT_GT(pglab->pid(), 0);
    ASSERT_TRUE(support::wait_until([&] { return backends_showing(m_tmp, " DO") >= 1; }))
        << read_file(err_file());
    ASSERT_EQ(::kill(pglab->pid(), SIGINT), 0);
    // The second one once the server is being shut down: the plan's cleanup has begun.
    EXPECT_TRUE(support::wait_until([&] { return shutdown_logged(results()); }))
        << "no server log says that a shutdown was requested";
    ::kill(pglab->pid(), SIGINT);
    expect_interrupted_end(*pglab);
    EXPECT_TRUE(lines(results()).empty());
    expect_clean();
}

TEST_F(LabInterrupt, DemoDiesBySigintAndRemovesItsCluster) {
    support::Background demo({support::pglab_binary(), "demo"}, m_tmp, err_file());
    ASSERT_GT(demo.pid(), 0);
    // The benchmark's 4 clients are connected (the initialisation has one connection).
    ASSERT_TRUE(support::wait_until([&] {
        const auto titles = support::command_lines_in(m_tmp);
        return std::count_if(
                   titles.begin(), titles.end(),
                   [](const std::string& t) { return t.find("[local]") != std::string::npos; })
               >= 4;
    })) << read_file(err_file());
    ASSERT_EQ(::kill(demo.pid(), SIGINT), 0);
    const int status = demo.wait();
    ASSERT_NE(status, -1) << "pglab demo did not end after SIGINT";
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT)
        << status << ": " << read_file(err_file());
    expect_clean();
}

} // namespace
