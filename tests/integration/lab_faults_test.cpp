// `pglab run` when things go wrong, as a user running a lab unattended for hours meets them
// (issue 12): a run_timeout that must stop the step in progress, bench/init options and scripts
// refused before anything starts (also by --dry-run), two runners on one results directory, a
// server that dies mid-plan, a full disk, a killed session's server log, and long values in
// messages.
#include "support/background.hpp"
#include "support/files.hpp"
#include "support/processes.hpp"
#include "support/wait.hpp"

#include <fmt/format.h>

#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>

#include <algorithm>
#include <set>
#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

/// `pglab ARGS...` in the background.
class Background : public support::Background {
public:
    Background(std::vector<std::string> args, const fs::path& tmpdir, const fs::path& err)
        : support::Background(with_binary(std::move(args)), tmpdir, err) {}

private:
    static std::vector<std::string> with_binary(std::vector<std::string> args) {
        args.insert(args.begin(), support::pglab_binary());
        return args;
    }
};

class LabFaults : public support::LabTestDir {
protected:
    support::CommandResult pglab(std::vector<std::string> args) {
        args.insert(args.begin(), support::pglab_binary());
        return support::run_command(args, env(), {}, std::chrono::seconds(300));
    }

    /// The step object of `line` whose key is `key`.
    static nlohmann::json step(const nlohmann::json& line, const std::string& key) {
        for (const auto& s : line["steps"]) {
            if (s["key"] == key) {
                return s;
            }
        }
        return nullptr;
    }
};

// Item 1: one run per kind of step that waits, each under a 3-second run_timeout while the step
// would take 1000 s: the step is stopped (the statement cancelled, the child killed, the sleep
// and the bench ended) and recorded "timed-out", and so is its run.
TEST_F(LabFaults, RunTimeoutStopsTheStepInProgress) {
    const fs::path file = write("timeout.toml", R"toml(name = "timeouts"
run_timeout = "3s"
on_error = "continue"

[matrix]
params.kind = ["sql", "shell", "sleep", "bench"]

[scripts.nap]
text = "SELECT pg_sleep(0.01);"

[[steps]]
type = "sql"
name = "sql"
sql = "SELECT pg_sleep(1000)"
when = "params.kind == 'sql'"

[[steps]]
type = "shell"
name = "shell"
command = "sleep 1000"
when = "params.kind == 'shell'"

[[steps]]
type = "sleep"
name = "sleep"
duration = "1000s"
when = "params.kind == 'sleep'"

[[steps]]
type = "bench"
name = "bench"
scripts = ["nap"]
options = ["--time=1000"]
when = "params.kind == 'bench'"

[[steps]]
type = "sql"
name = "after"
sql = "SELECT 1"
)toml");
    const fs::path results = m_dir / "results";
    const auto r = pglab({"run", file.string(), "--results", results.string()});
    ASSERT_FALSE(r.timed_out) << "the steps were not stopped";
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 4u) << r.err;
    for (const auto& l : ls) {
        const std::string kind = l["values"]["params.kind"];
        SCOPED_TRACE(kind);
        EXPECT_EQ(l["status"], "timed-out") << l.dump();
        const auto s = step(l, kind);
        EXPECT_EQ(s["status"], "timed-out") << s.dump();
        EXPECT_NE(s["error"].get<std::string>().find("run_timeout (3000 ms) reached after"),
                  std::string::npos)
            << s["error"];
        EXPECT_EQ(l["error"]["step_key"], kind) << l["error"].dump();
        EXPECT_EQ(step(l, "after")["status"], "not-run");
        if (kind == "bench") {
            // Stopped as by a signal: it still reports what it did.
            EXPECT_TRUE(s["bench"].is_object()) << s.dump();
        }
    }
    EXPECT_NE(r.err.find("timed out"), std::string::npos) << r.err;
    expect_clean();
}

// Item 2 (and 5, 8): bad options and scripts are refused before anything starts, by the real
// run and by --dry-run alike, each at the position of its key, in line order.
TEST_F(LabFaults, BadOptionsAndScriptsAreRefusedBeforeTheStart) {
    const fs::path dir_script = m_dir / "a-directory";
    fs::create_directories(dir_script);
    const fs::path file = write("bad.toml", R"toml(name = "bad-options"

[scripts.broken]
text = "\\set x (1 +\nSELECT :x;\n"

[scripts.dir]
file = ")toml" + dir_script.string() + R"toml("

[[steps]]
type = "init"
options = ["--bogus"]

[[steps]]
type = "bench"
options = ["--no-such-option"]

[[steps]]
type = "bench"
options = ["-c"]

[[steps]]
type = "bench"
scripts = ["broken"]
options = ["--transactions=1"]

[[steps]]
type = "bench"
scripts = ["dir"]
options = ["--transactions=1"]
)toml");
    const fs::path results = m_dir / "results";
    for (const bool dry : {true, false}) {
        SCOPED_TRACE(dry ? "--dry-run" : "run");
        std::vector<std::string> args = {"run", file.string(), "--results", results.string()};
        if (dry) {
            args.emplace_back("--dry-run");
        }
        const auto r = pglab(args);
        EXPECT_EQ(r.exit_code, 1) << support::describe(r);
        const std::string f = file.string();
        const std::vector<std::string> expected = {
            f + ":3:10:",  // the broken script
            f + ":6:10:",  // the directory given as a script file
            f + ":11:12:", // --bogus
            f + ":15:12:", // --no-such-option
            f + ":19:12:", // -c without its value
        };
        std::size_t last = 0;
        for (const auto& where : expected) {
            const std::size_t at = r.err.find(where);
            EXPECT_NE(at, std::string::npos) << where << "\n" << r.err;
            if (at != std::string::npos) {
                EXPECT_GE(at, last) << where << " is not in line order\n" << r.err;
                last = at;
            }
        }
        EXPECT_NE(r.err.find("bogus"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("no-such-option"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(results));
        EXPECT_TRUE(fs::is_empty(m_tmp)) << "a server was started";
    }
}

// Item 5: what the real run refuses, --dry-run refuses too, all of it, each at its key and in
// line order: a version no installation has, a bin_dir that does not exist, the promotion of a
// server that is no standby.
// A claim's metric is checked when the file is read: a misspelt one costs no run.
TEST_F(LabFaults, AMisspeltClaimMetricIsRefusedBeforeAnyServerStarts) {
    const fs::path file = write("claim.toml", R"toml(name = "misspelt-metric"

[[steps]]
type = "bench"
name = "load"
options = ["--time=1"]

[[claims]]
text = "fast enough"
step = "load"
metric = "tsp"
at_least = 1
)toml");
    const auto r = pglab({"run", file.string(), "--results", (m_dir / "results").string()});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_NE(r.err.find(file.string()
                         + ":11:11: step \"load\" (bench) gives no metric \"tsp\" (did you mean "
                           "\"tps\"?)"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(fs::exists(m_dir / "results"));
    EXPECT_TRUE(fs::is_empty(m_tmp)) << "a server was started";
}

TEST_F(LabFaults, DryRunRefusesWhatTheRunRefuses) {
    const fs::path file = write("servers.toml", R"toml(name = "bad-servers"
server = "old"

[servers.old]
version = "99"

[servers.gone]
bin_dir = "/no/such/bin"

[[steps]]
type = "sql"
sql = "SELECT 1"

[[steps]]
type = "promote"
server = "old"

[[steps]]
type = "sql"
server = "gone"
sql = "SELECT 2"
)toml");
    for (const bool dry : {true, false}) {
        SCOPED_TRACE(dry ? "--dry-run" : "run");
        std::vector<std::string> args = {"run", file.string(), "--results",
                                         (m_dir / "results").string()};
        if (dry) {
            args.emplace_back("--dry-run");
        }
        const auto r = pglab(args);
        EXPECT_EQ(r.exit_code, 1) << support::describe(r);
        const std::size_t version = r.err.find(file.string() + ":5:11:");
        const std::size_t bin_dir = r.err.find(file.string() + ":8:11:");
        const std::size_t promote = r.err.find(file.string() + ":14:1:");
        EXPECT_NE(version, std::string::npos) << r.err;
        EXPECT_NE(bin_dir, std::string::npos) << r.err;
        EXPECT_NE(promote, std::string::npos) << r.err;
        EXPECT_LT(version, bin_dir) << r.err;
        EXPECT_LT(bin_dir, promote) << r.err;
        EXPECT_EQ(r.out.find("runs, order"), std::string::npos) << r.out;
        EXPECT_FALSE(fs::exists(m_dir / "results"));
        EXPECT_TRUE(fs::is_empty(m_tmp)) << "a server was started";
    }
}

// Item 3: while a runner holds a results directory, a second one (--resume, or a new run into
// the same directory) is refused with the first one's pid.
TEST_F(LabFaults, ASecondRunnerOnALiveDirectoryIsRefused) {
    const fs::path file = write("long.toml", R"toml(name = "long"
repeat = 3

[[steps]]
type = "sql"
sql = "DO $$ BEGIN PERFORM pg_sleep(600); END $$"
)toml");
    const fs::path results = m_dir / "results";
    Background first({"run", file.string(), "--results", results.string()}, m_tmp,
                     m_dir / "first.err");
    ASSERT_GT(first.pid(), 0);
    ASSERT_TRUE(support::wait_until([&] { return fs::exists(results / "runs" / "0000"); }));

    const std::string in_use = fmt::format("is in use by pglab (pid {})", first.pid());
    const auto resumed = pglab({"run", "--resume", results.string()});
    EXPECT_EQ(resumed.exit_code, 1) << support::describe(resumed);
    EXPECT_NE(resumed.err.find(in_use), std::string::npos) << resumed.err;
    const auto again = pglab({"run", file.string(), "--results", results.string()});
    EXPECT_EQ(again.exit_code, 1) << support::describe(again);
    EXPECT_NE(again.err.find(in_use), std::string::npos) << again.err;
    EXPECT_FALSE(fs::exists(results / "results.jsonl") && !lines(results).empty())
        << "a second runner ran a run";

    ASSERT_EQ(::kill(first.pid(), SIGTERM), 0);
    const int status = first.wait();
    ASSERT_NE(status, -1) << "the first runner did not end after SIGTERM";
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << status;
    expect_clean();
}

// A shell step runs in its own process group (so that a timeout kills its children too): SIGINT
// to pglab still ends it, through the stop request, and the plan stops as interrupted.
TEST_F(LabFaults, SigintEndsAShellStepAndItsChildren) {
    const fs::path started = m_dir / "started";
    const fs::path file = write("shell.toml", R"toml(name = "shell-sigint"

[[steps]]
type = "shell"
command = "cd ')toml" + m_tmp.string() + "' && touch '"
                                                  + started.string() + R"toml(' && sleep 600"
)toml");
    const fs::path results = m_dir / "results";
    Background run({"run", file.string(), "--results", results.string()}, m_tmp, m_dir / "run.err");
    ASSERT_GT(run.pid(), 0);
    ASSERT_TRUE(support::wait_until([&] { return fs::exists(started); }));
    ASSERT_EQ(::kill(run.pid(), SIGINT), 0);
    const int status = run.wait();
    ASSERT_NE(status, -1) << "the shell step was not stopped";
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << status;
    EXPECT_TRUE(lines(results).empty());
    expect_clean(); // the sleep worked in m_tmp: it is gone too
}

// Item 4: a server killed mid-plan. The run that loses it fails naming the server and its log;
// the next run finds it dead, starts it again (recorded in the run) and succeeds.
TEST_F(LabFaults, ADeadServerIsStartedAgain) {
    const fs::path marker = m_dir / "killed-once";
    const fs::path file =
        write("dies.toml", R"toml(name = "dies"
repeat = 3
on_error = "continue"

[[steps]]
type = "shell"
name = "kill"
command = "[ -e ')toml" + marker.string()
                               + R"toml(' ] || { touch ')toml" + marker.string() +
                               R"toml('; kill -9 $(head -1 \"$PGHOST/../data/postmaster.pid\"); }"

[[steps]]
type = "sql"
name = "query"
sql = "SELECT 1"
)toml");
    const fs::path results = m_dir / "results";
    const auto r = pglab({"run", file.string(), "--results", results.string()});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 3u) << r.err;
    EXPECT_EQ(ls[0]["status"], "failed");
    const std::string reason = ls[0]["error"]["reason"];
    EXPECT_NE(reason.find("server \"default\" is not running"), std::string::npos) << reason;
    EXPECT_NE(reason.find("servers/default/1-postgresql.log"), std::string::npos) << reason;
    EXPECT_EQ(ls[1]["status"], "ok") << ls[1].dump();
    ASSERT_TRUE(ls[1].contains("recoveries")) << ls[1].dump();
    EXPECT_EQ(ls[1]["recoveries"][0]["server"], "default");
    EXPECT_NE(ls[1]["recoveries"][0]["reason"].get<std::string>().find("signal 9"),
              std::string::npos)
        << ls[1]["recoveries"].dump();
    EXPECT_EQ(ls[2]["status"], "ok");
    EXPECT_FALSE(ls[2].contains("recoveries"));
    EXPECT_NE(r.err.find("server \"default\" was found dead"), std::string::npos) << r.err;
    expect_clean();
}

// A backend killed by a signal makes the postmaster end every session and restart the server
// without ending itself (bench/fault-campaign found such a run recorded ok): only the server's
// log tells, and the step during which it happened fails, naming it; the run stops there, and
// the terminal gets one line, not the server's log.
TEST_F(LabFaults, ACrashRestartDuringAStepFailsItNamingTheCrash) {
    const fs::path file = write("crash.toml", R"toml(name = "crash-restart"

[[steps]]
type = "shell"
name = "crash"
command = "psql -XAtc 'select pg_sleep(30)' >/dev/null 2>&1 & sleep 0.2; until pid=$(psql -XAtc \"select pid from pg_stat_activity where query = 'select pg_sleep(30)'\") && [ -n \"$pid\" ]; do sleep 0.05; done; kill -9 $pid; wait; until psql -XAtc 'select 1' >/dev/null 2>&1; do sleep 0.05; done"

[[steps]]
type = "sql"
name = "after"
sql = "SELECT 1"
)toml");
    const fs::path results = m_dir / "results";
    const auto r = pglab({"run", file.string(), "--results", results.string()});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u) << r.err;
    EXPECT_EQ(ls[0]["status"], "failed");
    const std::string reason = ls[0]["error"]["reason"];
    EXPECT_NE(reason.find("server \"default\" crashed during the step and its postmaster "
                          "restarted it: \""),
              std::string::npos)
        << reason;
    EXPECT_NE(reason.find("was terminated by signal 9"), std::string::npos) << reason;
    EXPECT_NE(reason.find("(its log: servers/default/1-postgresql.log)"), std::string::npos)
        << reason;
    EXPECT_EQ(ls[0]["steps"][0]["status"], "failed");
    EXPECT_EQ(ls[0]["steps"][1]["status"], "not-run") << ls[0]["steps"][1].dump();
    for (const std::string& line : support::lines_of(r.err)) {
        EXPECT_EQ(line.rfind("pglab: ", 0), 0u) << "not pglab's line: " << line;
    }
    expect_clean();
}

// Items 6 and 7: the results on a file system that fills up mid-plan. The line that does not
// fit is not left half-written, the error says why, --resume (once there is room) finishes the
// plan with whole lines, `pglab report` on a full disk leaves no empty report.md, and the
// server log of the first session is kept next to the resumed one's.
TEST_F(LabFaults, AFullDiskLeavesWholeLinesAndAWholeReport) {
    const fs::path mnt = m_dir / "small";
    fs::create_directories(mnt);
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=2m") != 0) {
        GTEST_SKIP() << "cannot mount a small tmpfs here (needs root)";
    }

    struct Unmount {
        fs::path p;

        ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
    } unmount{mnt};

    const fs::path results = mnt / "results";
    const fs::path fill = mnt / "fill";
    const fs::path filled = m_dir / "filled-once";
    // Run 1 fills the disk (once): its own line (and its log) no longer fit.
    const fs::path file =
        write("full.toml", R"toml(name = "full-disk"
repeat = 3

[[steps]]
type = "sql"
sql = "SELECT repeat('x', 3000)"

[[steps]]
type = "shell"
command = "if [ -e ')toml" + (results / "runs" / "0001").string()
                               + "' ] && [ ! -e '" + filled.string() + "' ]; then touch '"
                               + filled.string() + "'; cat /dev/zero > '" + fill.string()
                               + R"toml(' 2>/dev/null; fi; true"
)toml");
    const auto r = pglab({"run", file.string(), "--results", results.string()});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
    const std::string text = read_file(results / "results.jsonl");
    EXPECT_TRUE(text.empty() || text.back() == '\n') << "a half line is left";
    auto c = pglab::lab::store::read_results(results / "results.jsonl");
    ASSERT_TRUE(c);
    EXPECT_FALSE(c->torn);
    EXPECT_EQ(c->runs.size(), 1u);

    // A report on the full disk: an error with the reason, and no empty report.md.
    const auto rep = support::run_command(
        {support::pglab_binary(), "report", results.string(), "--no-charts"}, env());
    EXPECT_NE(rep.exit_code, 0) << support::describe(rep);
    EXPECT_NE(rep.err.find("No space left on device"), std::string::npos) << rep.err;
    EXPECT_FALSE(fs::exists(results / "report.md") && fs::file_size(results / "report.md") == 0)
        << "an empty report.md is left";

    fs::remove(fill);
    const auto resumed = pglab({"run", "--resume", results.string()});
    EXPECT_EQ(resumed.exit_code, 0) << support::describe(resumed);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 3u);
    std::set<std::size_t> runs;
    for (const auto& l : ls) {
        runs.insert(l["run"].get<std::size_t>());
        EXPECT_EQ(l["status"], "ok") << l.dump();
    }
    EXPECT_EQ(runs.size(), 3u);
    EXPECT_TRUE(fs::exists(results / "servers/default/1-postgresql.log"));
    EXPECT_TRUE(fs::exists(results / "servers/default/resume1-1-postgresql.log"));
    expect_clean();
}

// Item 7: after SIGKILL and --resume, the killed session's server log is still there, and the
// resumed session's is another file.
TEST_F(LabFaults, AKilledSessionsServerLogIsKept) {
    const fs::path file = write("killed.toml", R"toml(name = "killed"

[[steps]]
type = "sql"
sql = "DO $$ BEGIN RAISE LOG 'pglab-marker'; PERFORM pg_sleep(600); END $$"
)toml");
    const fs::path results = m_dir / "results";
    const fs::path log = results / "servers/default/1-postgresql.log";
    {
        Background first({"run", file.string(), "--results", results.string()}, m_tmp,
                         m_dir / "first.err");
        ASSERT_GT(first.pid(), 0);
        ASSERT_TRUE(support::wait_until([&] {
            return fs::exists(log) && read_file(log).find("pglab-marker") != std::string::npos;
        }));
        ::kill(first.pid(), SIGKILL);
    }
    const std::string killed_log = read_file(log);
    Background second({"run", "--resume", results.string()}, m_tmp, m_dir / "second.err");
    const fs::path second_log = results / "servers/default/resume1-1-postgresql.log";
    ASSERT_TRUE(support::wait_until([&] {
        return fs::exists(second_log)
               && read_file(second_log).find("pglab-marker") != std::string::npos;
    }));
    ::kill(second.pid(), SIGTERM);
    const int status = second.wait();
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << status;
    EXPECT_EQ(read_file(log).substr(0, killed_log.size()), killed_log);
    expect_clean();
}

// Item 8: a huge matrix value and a huge unknown key are shown by their start and length.
TEST_F(LabFaults, LongValuesAreShortenedInMessages) {
    const std::string huge(100000, 'k');
    const fs::path file =
        write("huge.toml", "name = \"huge\"\n" + huge
                               + " = 1\n\n"
                                 "[[steps]]\ntype = \"sql\"\nsql = \"SELECT 1\"\n");
    const auto r = pglab({"run", file.string(), "--dry-run"});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_LT(r.err.size(), 5000u) << r.err.substr(0, 500);
    EXPECT_NE(r.err.find("(100000 characters)"), std::string::npos) << r.err.substr(0, 2000);

    const fs::path value_file =
        write("value.toml", "name = \"big-value\"\n[matrix]\nparams.v = [\"" + huge
                                + "\"]\n\n[[steps]]\ntype = \"sql\"\nsql = \"SELECT 1\"\n");
    const fs::path results = m_dir / "results";
    const auto run = pglab({"run", value_file.string(), "--results", results.string()});
    EXPECT_EQ(run.exit_code, 0) << support::describe(run).substr(0, 2000);
    EXPECT_LT(run.err.size(), 5000u) << run.err.substr(0, 500);
    EXPECT_NE(run.err.find("characters)"), std::string::npos) << run.err.substr(0, 2000);
    expect_clean();
}

} // namespace
