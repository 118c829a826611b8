// Functional checks end to end through the pglab binary: every check kind (expect, expect_rows,
// expect_error by SQLSTATE and by message, expect_blocked, expect_plan) passing and failing in one
// run, the later steps still running after a failed check, the checks section of the report, the
// server's notices kept in the step's log; what a blocked statement did once released (rows, or
// an error with its SQLSTATE) and a blocked statement that nothing releases (cancelled, no hang);
// and S1e as shipped passing.
#include "support/files.hpp"
#include "support/run_command.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabChecks = support::LabTestDir;

// Each check kind once passing, once failing, in the order of the steps below; the blocking
// checks use a table that session s1 keeps locked.
constexpr const char* k_checks_experiment = R"toml(name = "checks"

[sessions.s1]
[sessions.s2]
[sessions.s3]
[sessions.s4]

[[steps]]
type = "sql"
name = "setup"
sql = ["DROP TABLE IF EXISTS t", "CREATE TABLE t (id int PRIMARY KEY, v text)",
       "INSERT INTO t VALUES (1, 'a'), (2, NULL)",
       "DO $$BEGIN RAISE NOTICE 'notice-for-the-log'; END$$"]

[[steps]]
type = "sql"
name = "value-pass"
sql = "SELECT v FROM t WHERE id = 1"
expect = "a"

[[steps]]
type = "sql"
name = "value-fail"
sql = "SELECT v FROM t WHERE id = 1"
expect = "b"

[[steps]]
type = "sql"
name = "rows-pass"
sql = "SELECT id, v FROM t ORDER BY id"
expect_rows = [[1, "a"], [2, "\\N"]]

[[steps]]
type = "sql"
name = "rows-fail"
sql = "SELECT id FROM t ORDER BY id"
expect_rows = ["1"]

[[steps]]
type = "sql"
name = "sqlstate-pass"
sql = "INSERT INTO t VALUES (1, 'dup')"
expect_error = "23505"

[[steps]]
type = "sql"
name = "message-pass"
sql = "SELECT 1/0"
expect_error = "division by zero"

[[steps]]
type = "sql"
name = "sqlstate-fail"
sql = "SELECT 1"
expect_error = "23505"

[[steps]]
type = "explain"
name = "plan-pass"
sql = "SELECT 1"
analyze = false
expect_plan = "Result"

[[steps]]
type = "explain"
name = "plan-fail"
sql = "SELECT * FROM t"
analyze = false
expect_plan = ["Seq Scan", "Index Only Scan"]

[[steps]]
type = "sql"
session = "s1"
sql = ["BEGIN", "LOCK TABLE t"]

[[steps]]
type = "sql"
name = "blocked-pass"
session = "s2"
sql = "SELECT count(*) FROM t"
expect_blocked = "500ms"

[[steps]]
type = "sql"
name = "blocked-then-fails"
session = "s4"
sql = "INSERT INTO t VALUES (1, 'dup')"
expect_blocked = "500ms"

[[steps]]
type = "sql"
name = "blocked-fail"
session = "s3"
sql = "SELECT 42"
expect_blocked = "1s"

[[steps]]
type = "sql"
session = "s1"
sql = "COMMIT"

[[steps]]
type = "sql"
name = "after-the-blocked-one"
session = "s2"
sql = "SELECT count(*) FROM t"
expect = "2"
)toml";

TEST_F(LabChecks, EveryCheckKindPassesAndFailsAndTheRunGoesOn) {
    const fs::path file = write("checks.toml", k_checks_experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    EXPECT_EQ(r.exit_code, 1) << support::describe(r); // failed checks fail the run
    // The server's notice is in the step's log, not on the terminal.
    EXPECT_EQ(r.err.find("notice-for-the-log"), std::string::npos) << r.err;
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u);
    const auto& run = ls[0];
    EXPECT_EQ(run["status"], "failed");
    EXPECT_EQ(run["error"]["step_key"], "value-fail"); // the first failure is the run's
    std::map<std::string, nlohmann::json> steps;
    for (const auto& s : run["steps"]) {
        steps[s["key"].get<std::string>()] = s;
    }
    EXPECT_NE(support::read_file(results / steps["setup"]["log"].get<std::string>())
                  .find("NOTICE:  notice-for-the-log"),
              std::string::npos);
    // The result rows of a sql step are kept, with their columns.
    EXPECT_EQ(steps["rows-pass"]["columns"], nlohmann::json({"id", "v"}));
    EXPECT_EQ(steps["rows-pass"]["rows"], nlohmann::json::parse(R"([["1","a"],["2",null]])"));
    EXPECT_EQ(steps["rows-pass"]["row_count"], 2);

    const std::map<std::string, std::pair<std::string, bool>> expected = {
        {"value-pass", {"expect", true}},
        {"value-fail", {"expect", false}},
        {"rows-pass", {"expect_rows", true}},
        {"rows-fail", {"expect_rows", false}},
        {"sqlstate-pass", {"expect_error", true}},
        {"message-pass", {"expect_error", true}},
        {"sqlstate-fail", {"expect_error", false}},
        {"plan-pass", {"expect_plan", true}},
        {"plan-fail", {"expect_plan", false}},
        {"blocked-pass", {"expect_blocked", true}},
        {"blocked-then-fails", {"expect_blocked", true}},
        {"blocked-fail", {"expect_blocked", false}},
        {"after-the-blocked-one", {"expect", true}},
    };
    for (const auto& [key, want] : expected) {
        SCOPED_TRACE(key);
        const auto& s = steps[key];
        ASSERT_TRUE(s.contains("checks")) << s.dump();
        ASSERT_EQ(s["checks"].size(), 1u);
        const auto& c = s["checks"][0];
        EXPECT_EQ(c["kind"], want.first);
        EXPECT_EQ(c["pass"], want.second) << c.dump();
        EXPECT_EQ(s["status"], want.second ? "ok" : "failed") << s.dump();
        EXPECT_TRUE(c.contains("expected") && c.contains("actual"));
    }
    EXPECT_EQ(steps["value-fail"]["checks"][0]["actual"], "a");
    EXPECT_EQ(steps["sqlstate-pass"]["sql_error"]["sqlstate"], "23505");
    EXPECT_EQ(steps["sqlstate-fail"]["checks"][0]["actual"], "no error (the statements succeeded)");
    EXPECT_NE(steps["blocked-pass"]["checks"][0]["actual"].get<std::string>().find("Lock"),
              std::string::npos);
    EXPECT_NE(steps["blocked-fail"]["checks"][0]["actual"].get<std::string>().find("completed"),
              std::string::npos);
    // A statement that ended before its bound says what it gave.
    const std::string early = steps["blocked-fail"]["checks"][0]["actual"];
    EXPECT_EQ(early.substr(early.size() - 7), ": 1 row") << early;
    EXPECT_FALSE(steps["blocked-fail"].contains("late_result"));

    // Released by the COMMIT, the blocked SELECT completed; its session's next step waited for it.
    const auto& released = steps["blocked-pass"];
    ASSERT_TRUE(released.contains("late_result")) << released.dump();
    EXPECT_EQ(released["late_result"]["status"], "completed");
    EXPECT_EQ(released["late_result"]["rows"], nlohmann::json::parse(R"([["2"]])"));
    EXPECT_EQ(released["late_result"]["row_count"], 1);
    EXPECT_TRUE(released["late_result"]["sql_error"].is_null());
    EXPECT_GE(released["late_result"]["waited_ms"].get<double>(), 500.0); // it was still waiting
    const std::string released_actual = released["checks"][0]["actual"];
    EXPECT_EQ(
        released_actual.rfind("still waiting after 500 ms (Lock: relation, blocked by pid ", 0), 0U)
        << released_actual;
    EXPECT_NE(released_actual.find("; then completed "), std::string::npos) << released_actual;
    EXPECT_NE(released_actual.find(" after it was sent: 1 row"), std::string::npos)
        << released_actual;
    EXPECT_EQ(released["checks"][0]["pass"], true);
    EXPECT_EQ(released["status"], "ok");

    // Released by the same COMMIT, the blocked INSERT failed (a duplicate key): found at the end of
    // the run, as no later step used its session.
    const auto& failed_late = steps["blocked-then-fails"];
    ASSERT_TRUE(failed_late.contains("late_result")) << failed_late.dump();
    EXPECT_EQ(failed_late["late_result"]["status"], "failed");
    EXPECT_EQ(failed_late["late_result"]["sql_error"]["sqlstate"], "23505");
    const std::string failed_actual = failed_late["checks"][0]["actual"];
    EXPECT_NE(failed_actual.find("; then failed "), std::string::npos) << failed_actual;
    EXPECT_NE(failed_actual.find(" after it was sent: 23505: duplicate key value"),
              std::string::npos)
        << failed_actual;
    EXPECT_EQ(failed_late["status"], "ok"); // the check was judged at its bound

    const auto rep = support::run_command({support::pglab_binary(), "report", results.string()});
    ASSERT_EQ(rep.exit_code, 0) << support::describe(rep);
    const std::string md = support::read_file(results / "report.md");
    EXPECT_NE(md.find("## Functional checks"), std::string::npos);
    EXPECT_LT(md.find("## Functional checks"), md.find("## Environment"));
    EXPECT_NE(md.find("5 of 13 checks FAIL"), std::string::npos) << md;
    EXPECT_NE(md.find("| value-fail | expect | `b` | `a` | FAIL |"), std::string::npos) << md;
    expect_clean();
}

// A blocker that never goes away: the statement is cancelled when its session's next step needs
// it, and at the end of the run, rather than waiting for ever; each end is recorded as such.
TEST_F(LabChecks, ABlockedStatementNothingReleasesIsCancelled) {
    const fs::path file = write("never.toml", R"toml(name = "never-released"

[sessions.s1]
[sessions.s2]
[sessions.s3]

[[steps]]
type = "sql"
sql = ["DROP TABLE IF EXISTS u", "CREATE TABLE u (id int)"]

[[steps]]
type = "sql"
session = "s1"
sql = ["BEGIN", "LOCK TABLE u"]

[[steps]]
type = "sql"
name = "next-step-needs-it"
session = "s2"
sql = "SELECT count(*) FROM u"
expect_blocked = "300ms"

[[steps]]
type = "sql"
name = "the-next-step"
session = "s2"
sql = "SELECT 1"
expect = "1"

[[steps]]
type = "sql"
name = "left-to-the-end"
session = "s3"
sql = "SELECT count(*) FROM u"
expect_blocked = "300ms"
)toml");
    const fs::path results = m_dir / "results";
    const auto r = support::run_command(
        {support::pglab_binary(), "run", file.string(), "--results", results.string()}, env(), "",
        std::chrono::seconds(120));
    ASSERT_EQ(r.exit_code, 0) << support::describe(r); // the checks passed at their bounds
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u);
    std::map<std::string, nlohmann::json> steps;
    for (const auto& s : ls[0]["steps"]) {
        steps[s["key"].get<std::string>()] = s;
    }
    for (const char* key : {"next-step-needs-it", "left-to-the-end"}) {
        SCOPED_TRACE(key);
        const auto& s = steps[key];
        ASSERT_TRUE(s.contains("late_result")) << s.dump();
        EXPECT_EQ(s["late_result"]["status"], "cancelled");
        EXPECT_EQ(s["late_result"]["sql_error"]["sqlstate"], "57014");
        EXPECT_NE(s["late_result"]["cancelled_because"].get<std::string>().find("idle"),
                  std::string::npos);
        const std::string actual = s["checks"][0]["actual"];
        EXPECT_NE(actual.find("; never released: cancelled "), std::string::npos) << actual;
        EXPECT_EQ(s["checks"][0]["pass"], true);
    }
    EXPECT_EQ(steps["the-next-step"]["status"], "ok") << steps["the-next-step"].dump();
    expect_clean();
}

// A step's `timeout` holds in each one-statement kind and ends with the step: the next step of
// the same session runs without it. The timeout that fires fails its step, which ends the run.
TEST_F(LabChecks, AStepsTimeoutCancelsItsStatementAndEndsWithTheStep) {
    for (const char* kind : {"explain", "timed-sql"}) {
        SCOPED_TRACE(kind);
        const fs::path file = write("timeouts.toml", fmt::format(R"toml(name = "timeouts"

[sessions.s1]

[[steps]]
type = "{0}"
name = "within-its-timeout"
session = "s1"
sql = "SELECT 1"
timeout = "10s"

[[steps]]
type = "sql"
name = "after-it"
session = "s1"
sql = "SHOW statement_timeout"
expect = "0"

[[steps]]
type = "{0}"
name = "beyond-its-timeout"
session = "s1"
sql = "SELECT pg_sleep(30)"
timeout = "200ms"
)toml",
                                                                 kind));
        const fs::path results = m_dir / fmt::format("results-{}", kind);
        const auto r = run_experiment(file, results);
        EXPECT_EQ(r.exit_code, 1) << support::describe(r);
        const auto ls = lines(results);
        ASSERT_EQ(ls.size(), 1u);
        std::map<std::string, nlohmann::json> steps;
        for (const auto& s : ls[0]["steps"]) {
            steps[s["key"].get<std::string>()] = s;
        }
        EXPECT_EQ(steps["within-its-timeout"]["status"], "ok") << ls[0].dump();
        EXPECT_EQ(steps["after-it"]["status"], "ok") << steps["after-it"].dump();
        EXPECT_EQ(steps["beyond-its-timeout"]["status"], "failed") << ls[0].dump();
        EXPECT_NE(steps["beyond-its-timeout"]["error"].dump().find("statement timeout"),
                  std::string::npos)
            << steps["beyond-its-timeout"].dump();
    }
    expect_clean();
}

TEST_F(LabChecks, S1eAsShippedPasses) {
    const fs::path file = fs::path(PGLAB_SOURCE_DIR) / "experiments/s1e-functional-checks.toml";
    const fs::path results = m_dir / "results";
    // --dry-run estimates the time: the blocking checks from the file, the statements as the
    // stored runs of the study timed them.
    const auto dry =
        support::run_command({support::pglab_binary(), "run", file.string(), "--dry-run"}, env());
    ASSERT_EQ(dry.exit_code, 0) << support::describe(dry);
    EXPECT_NE(dry.out.find("1 cells, 1 runs"), std::string::npos) << dry.out;
    EXPECT_NE(dry.out.find("time: about "), std::string::npos) << dry.out;
    EXPECT_NE(dry.out.find("docs/studies/results/s1e-functional-checks"), std::string::npos)
        << dry.out;
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u);
    EXPECT_EQ(ls[0]["status"], "ok") << ls[0]["error"].dump();
    std::size_t checks = 0;
    for (const auto& s : ls[0]["steps"]) {
        EXPECT_EQ(s["status"], "ok") << s.dump();
        for (const auto& c : s.value("checks", nlohmann::json::array())) {
            EXPECT_TRUE(c["pass"].get<bool>()) << s["key"] << ": " << c.dump();
            ++checks;
        }
    }
    EXPECT_GE(checks, 15u);
    std::map<std::string, std::string> kinds;
    for (const auto& s : ls[0]["steps"]) {
        for (const auto& c : s.value("checks", nlohmann::json::array())) {
            kinds[s["key"].get<std::string>()] = c["kind"].get<std::string>();
        }
    }
    // The negative control: a plain DROP INDEX blocks a reader; CONCURRENTLY does not.
    EXPECT_EQ(kinds["select-blocked-by-drop-index"], "expect_blocked");
    EXPECT_EQ(kinds["select-not-blocked"], "expect");
    EXPECT_EQ(kinds["exclusion-rejects-overlap"], "expect_error");
    expect_clean();
}

} // namespace
