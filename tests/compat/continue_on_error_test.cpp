// pgbench 19's --continue-on-error (upstream commit 0ab208fa5), as `pglab bench
// --pgbench-version=19` reproduces it: a client whose transaction fails with an SQL error other
// than a serialization failure or a deadlock rolls it back, counts it as an "other failure" and
// goes on. Each client inserts its own id three times: the first insert commits, the two others
// hit the primary key (23505). Until pgbench 19 is a reference here (issue 50, stage 2), the
// expected lines are pgbench 19's printResults() and doLog() formats, written out.
#include "support/files.hpp"
#include "support/run_command.hpp"
#include "support/test_server.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr const char* k_db = "continue_on_error";

/// One transaction block, so that the failed INSERT leaves a block to roll back.
constexpr const char* k_script = "BEGIN;\n"
                                 "INSERT INTO uniq VALUES (:client_id);\n"
                                 "COMMIT;\n";

bool continue_has_line(const std::string& text, const std::string& line) {
    const auto all = support::lines_of(text);
    return std::find(all.begin(), all.end(), line) != all.end();
}

class ContinueOnErrorTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        support::run_sql(std::string("drop database if exists ") + k_db);
        support::run_sql(std::string("create database ") + k_db);
        s_dir = fs::temp_directory_path() / ("pglab_continue_" + std::to_string(::getpid()));
        fs::create_directories(s_dir);
        std::ofstream(s_dir / "insert.sql") << k_script;
    }

    static void TearDownTestSuite() {
        fs::remove_all(s_dir);
        support::run_sql(std::string("drop database if exists ") + k_db);
    }

    void SetUp() override {
        support::run_sql("DROP TABLE IF EXISTS uniq; CREATE TABLE uniq (id int PRIMARY KEY)", k_db);
    }

    /// `pglab bench` with `args`, then `-f insert.sql`, on the test's database.
    static support::CommandResult bench(const std::vector<std::string>& args) {
        std::vector<std::string> argv = support::bench_program(true);
        argv.insert(argv.end(), args.begin(), args.end());
        argv.push_back("-f");
        argv.push_back((s_dir / "insert.sql").string());
        return support::run_command(argv, support::server_env(k_db), {}, std::chrono::seconds(60));
    }

    /// The log files written with --log-prefix=<dir>/<prefix>, their lines in one list.
    static std::vector<std::string> log_lines(const std::string& prefix) {
        std::vector<std::string> out;
        for (const auto& entry : fs::directory_iterator(s_dir)) {
            if (entry.path().filename().string().rfind(prefix + ".", 0) == 0) {
                for (auto& line : support::lines_of(support::read_file(entry.path()))) {
                    out.push_back(line);
                }
            }
        }
        return out;
    }

    static fs::path s_dir;
};

fs::path ContinueOnErrorTest::s_dir;

TEST_F(ContinueOnErrorTest, OtherFailuresAreCountedAndTheClientsGoOn) {
    // 2 clients x 3 transactions: each client's first insert commits, its two others fail.
    const auto r = bench({"--pgbench-version=19", "-n", "-c", "2", "-t", "3", "--continue-on-error",
                          "--failures-detailed", "-r"});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    for (const char* line :
         {"number of transactions actually processed: 2/6",
          "number of failed transactions: 4 (66.667%)",
          "number of serialization failures: 0 (0.000%)", "number of deadlock failures: 0 (0.000%)",
          "number of other failures: 4 (66.667%)",
          "statement latencies in milliseconds and failures:"}) {
        EXPECT_TRUE(continue_has_line(r.out, line)) << line << "\n" << support::describe(r);
    }
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex(R"(latency average = [0-9.]+ ms \(including failures\))")))
        << r.out;
    // -r: the INSERT (command 1) failed 4 times, BEGIN and COMMIT never.
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex(R"(\n +[0-9.]+ +4 INSERT INTO uniq VALUES \(:client_id\);\n)")))
        << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n +[0-9.]+ +0 COMMIT;\n)"))) << r.out;
    // Quiet about the errors without --verbose-errors, as pgbench 19 is.
    EXPECT_EQ(r.err.find("duplicate key"), std::string::npos) << r.err;
    EXPECT_EQ(support::run_sql("SELECT count(*) FROM uniq", k_db), "2\n");
}

TEST_F(ContinueOnErrorTest, VerboseErrorsNameEachErrorAndTheFailedTransaction) {
    const auto r = bench({"--pgbench-version=19", "-n", "-c", "1", "-t", "2", "--continue-on-error",
                          "--verbose-errors"});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_TRUE(std::regex_search(
        r.err,
        std::regex(
            R"(client 0 got an error in command 1 \(SQL\) of script 0; ERROR:  duplicate key value violates unique constraint "uniq_pkey")")))
        << r.err;
    EXPECT_TRUE(
        std::regex_search(r.err, std::regex(R"(client 0 ends the failed transaction \(try 1/1\))")))
        << r.err;
    EXPECT_TRUE(continue_has_line(r.out, "number of failed transactions: 1 (50.000%)")) << r.out;
    // Without --failures-detailed, no line by kind.
    EXPECT_EQ(r.out.find("number of other failures"), std::string::npos) << r.out;
}

TEST_F(ContinueOnErrorTest, LogsNameTheOtherFailures) {
    const std::string prefix = (s_dir / "tx").string();
    const auto r = bench({"--pgbench-version=19", "-n", "-c", "1", "-t", "3", "--continue-on-error",
                          "--failures-detailed", "-l", "--log-prefix=" + prefix});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const auto lines = log_lines("tx");
    ASSERT_EQ(lines.size(), 3U);
    // client, transaction number (from 1, as pgbench counts it before logging), latency or the
    // failure's kind, script, time
    EXPECT_TRUE(std::regex_match(lines[0], std::regex(R"(0 1 [0-9]+ 0 [0-9]+ [0-9]+)")))
        << lines[0];
    EXPECT_TRUE(std::regex_match(lines[1], std::regex(R"(0 2 other 0 [0-9]+ [0-9]+)"))) << lines[1];
    EXPECT_TRUE(std::regex_match(lines[2], std::regex(R"(0 3 other 0 [0-9]+ [0-9]+)"))) << lines[2];
}

TEST_F(ContinueOnErrorTest, AnAggregateLineHasAThirdFailureColumnFrom19) {
    // pglab's --log-last-interval keeps the one, partial interval of so short a run.
    const std::string prefix19 = (s_dir / "agg19").string();
    const auto r19 =
        bench({"--pgbench-version=19", "-n", "-c", "1", "-t", "3", "--continue-on-error",
               "--failures-detailed", "-l", "--aggregate-interval=1", "--log-last-interval",
               "--log-prefix=" + prefix19});
    ASSERT_EQ(r19.exit_code, 0) << support::describe(r19);
    const auto lines19 = log_lines("agg19");
    ASSERT_FALSE(lines19.empty());
    int64_t count = 0;
    int64_t other = 0;
    for (const auto& line : lines19) {
        std::istringstream in(line);
        std::vector<std::string> fields;
        for (std::string f; in >> f;) {
            fields.push_back(f);
        }
        // time, count, 4 latency and 4 lag columns, skipped, retried, retries, serialization,
        // deadlock and (19) other failures
        ASSERT_EQ(fields.size(), 16U) << line;
        count += std::stoll(fields[1]);
        other += std::stoll(fields[15]);
    }
    EXPECT_EQ(count, 1);
    EXPECT_EQ(other, 2);

    support::run_sql("TRUNCATE uniq", k_db);
    const std::string prefix18 = (s_dir / "agg18").string();
    const auto r18 =
        bench({"--pgbench-version=18", "-n", "-c", "1", "-t", "1", "-l", "--aggregate-interval=1",
               "--log-last-interval", "--log-prefix=" + prefix18});
    ASSERT_EQ(r18.exit_code, 0) << support::describe(r18);
    for (const auto& line : log_lines("agg18")) {
        std::istringstream in(line);
        int n = 0;
        for (std::string f; in >> f;) {
            ++n;
        }
        EXPECT_EQ(n, 15) << line;
    }
}

TEST_F(ContinueOnErrorTest, WithoutTheOptionTheClientAborts) {
    const auto r = bench({"--pgbench-version=19", "-n", "-c", "1", "-t", "2"});
    EXPECT_EQ(r.exit_code, 2) << support::describe(r);
    EXPECT_TRUE(std::regex_search(
        r.err,
        std::regex(R"(client 0 script 0 aborted in command 1 query 0: ERROR:  duplicate key)")))
        << r.err;
}

TEST_F(ContinueOnErrorTest, ReleasesBefore19DoNotKnowTheOption) {
    for (const char* version : {"15", "16", "17", "18"}) {
        const auto r = bench(
            {std::string("--pgbench-version=") + version, "-n", "-t", "1", "--continue-on-error"});
        EXPECT_EQ(r.exit_code, 1) << version << support::describe(r);
        EXPECT_NE(r.err.find("unrecognized option '--continue-on-error'"), std::string::npos)
            << version << support::describe(r);
        EXPECT_NE(r.err.find("Try \"pglab bench --help\" for more information."), std::string::npos)
            << version << support::describe(r);
    }
}

TEST_F(ContinueOnErrorTest, HelpAndVersionAre19s) {
    const auto help = support::run_command({support::pglab_binary(), "bench", "--help"},
                                           {{"PGLAB_PGBENCH_VERSION", "19"}});
    ASSERT_EQ(help.exit_code, 0) << support::describe(help);
    EXPECT_NE(help.out.find("  --aggregate-interval=NUM aggregate data over NUM seconds\n"
                            "  --continue-on-error      continue running after an SQL error\n"
                            "  --exit-on-abort          exit when any client is aborted\n"),
              std::string::npos)
        << help.out;
    const auto version = support::run_command({support::pglab_binary(), "bench", "-V"},
                                              {{"PGLAB_PGBENCH_VERSION", "19"}});
    EXPECT_EQ(version.out, "pgbench (PostgreSQL) 19rc1\n") << support::describe(version);
    const auto help18 = support::run_command({support::pglab_binary(), "bench", "--help"},
                                             {{"PGLAB_PGBENCH_VERSION", "18"}});
    EXPECT_EQ(help18.out.find("--continue-on-error"), std::string::npos);
}

} // namespace
