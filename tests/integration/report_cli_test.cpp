// `pglab report` and `pglab compare` as a user runs them: files written, exit codes, the CI gate.
// No server needed: they read the stored results fixture.
#include "support/files.hpp"
#include "support/run_command.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;

const std::string k_fixture =
    (fs::path(PGLAB_SOURCE_DIR) / "tests/golden/report/results-fixture").string();

fs::path out_dir() {
    const fs::path d = fs::path(PGLAB_BINARY).parent_path() / "test-artifacts" / "report-cli";
    fs::create_directories(d);
    return d;
}

using support::read_file;

support::CommandResult pglab(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {support::pglab_binary()};
    for (const auto& a : args) {
        argv.push_back(a);
    }
    return support::run_command(argv, {{"PGLAB_GNUPLOT", ""}});
}

TEST(ReportCliTest, MissingDirectoryExitsWithOne) {
    const auto r = pglab({"report", "/nonexistent/results"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("pglab: error: results directory \"/nonexistent/results\" does not exist"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(pglab({"compare", "/nonexistent/results", "--by", "server=a,b"}).exit_code, 1);
    EXPECT_EQ(pglab({"report"}).exit_code, 1);
    EXPECT_EQ(pglab({"report", k_fixture, "--format", "pdf"}).exit_code, 1);
    EXPECT_EQ(pglab({"compare", k_fixture}).exit_code, 1); // nothing to compare with
}

TEST(ReportCliTest, FormatsAndCorruptLinesOnStderr) {
    const fs::path csv = out_dir() / "cells.csv";
    const auto r = pglab({"report", k_fixture, "-o", csv.string()});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_NE(r.err.find("results.jsonl line 15: not valid JSON; the line is skipped"),
              std::string::npos);
    EXPECT_NE(r.err.find("results.jsonl line 24: incomplete last line"), std::string::npos);
    EXPECT_EQ(read_file(csv).rfind("step,step_type,metric,", 0), 0U);
    const auto json = pglab({"report", k_fixture, "--format", "json", "-o", "-"});
    ASSERT_EQ(json.exit_code, 0);
    EXPECT_EQ(nlohmann::json::parse(json.out)["version"], "pglab.report/1");
}

// What stands at -o is written, never replaced (util/output_file): a FIFO's reader gets the whole
// report, a link keeps pointing at its rewritten target; a directory or a missing one is exit 1.
TEST(ReportCliTest, OutputPathsAreWrittenNeverReplaced) {
    const fs::path dir = out_dir() / "paths";
    fs::remove_all(dir);
    fs::create_directories(dir / "kept");
    const auto whole = pglab({"report", k_fixture, "--format", "csv", "-o", "-"});
    ASSERT_EQ(whole.exit_code, 0) << support::describe(whole);

    const fs::path fifo = dir / "cells.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string got;
    std::thread reader([&] { got = read_file(fifo); });
    const auto piped = pglab({"report", k_fixture, "--format", "csv", "-o", fifo.string()});
    // Had pglab never opened the FIFO, its reader would wait for ever: a writer of our own ends it.
    if (const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC); fd >= 0) {
        ::close(fd);
    }
    reader.join();
    EXPECT_EQ(piped.exit_code, 0) << support::describe(piped);
    EXPECT_EQ(got, whole.out);
    EXPECT_TRUE(fs::is_fifo(fifo));

    std::ofstream(dir / "kept" / "cells.csv") << "old\n";
    fs::create_symlink("kept/cells.csv", dir / "cells.csv");
    const auto linked = pglab({"report", k_fixture, "-o", (dir / "cells.csv").string()});
    EXPECT_EQ(linked.exit_code, 0) << support::describe(linked);
    EXPECT_TRUE(fs::is_symlink(dir / "cells.csv"));
    EXPECT_EQ(read_file(dir / "kept" / "cells.csv"), whole.out);

    const auto into_dir =
        pglab({"report", k_fixture, "--format", "md", "-o", (dir / "kept").string()});
    EXPECT_EQ(into_dir.exit_code, 1);
    EXPECT_EQ(into_dir.err.substr(into_dir.err.find("pglab: error: cannot")),
              "pglab: error: cannot write " + (dir / "kept").string() + ": it is a directory\n");
    const auto nowhere = pglab({"report", k_fixture, "-o", "/nonexistent/dir/x.csv"});
    EXPECT_EQ(nowhere.exit_code, 1);
    EXPECT_NE(nowhere.err.find("pglab: error: cannot write /nonexistent/dir/x.csv: its directory "
                               "does not exist\n"),
              std::string::npos)
        << nowhere.err;
    EXPECT_FALSE(fs::exists("/nonexistent"));
    EXPECT_FALSE(fs::exists(dir / "kept" / "charts")); // nothing drawn beside a refused path
}

// The claims and the checks have CSV formats of their own (the cells' CSV keeps its header); the
// JSON export holds them too.
TEST(ReportCliTest, ClaimsAndChecksExports) {
    const auto claims = pglab({"report", k_fixture, "--format", "claims-csv", "-o", "-"});
    ASSERT_EQ(claims.exit_code, 0) << support::describe(claims);
    EXPECT_EQ(claims.out.rfind("claim,source,kind,step,metric,", 0), 0U) << claims.out;
    EXPECT_NE(claims.out.find(",untestable,needs a ZFS file system"), std::string::npos);
    const auto json = pglab({"report", k_fixture, "--format", "json", "-o", "-"});
    ASSERT_EQ(json.exit_code, 0);
    EXPECT_EQ(nlohmann::json::parse(json.out)["claims"].size(), 6U);
    const std::string checks_fixture =
        (fs::path(PGLAB_SOURCE_DIR) / "tests/golden/report/checks-fixture").string();
    const fs::path checks = out_dir() / "checks.csv";
    const auto r =
        pglab({"report", checks_fixture, "--format", "checks-csv", "-o", checks.string()});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_EQ(read_file(checks).rfind("run,label,step,kind,expected,actual,pass\n0,,exclusion,", 0),
              0U)
        << read_file(checks);
    const auto bad = pglab({"report", k_fixture, "--format", "claims"});
    EXPECT_EQ(bad.exit_code, 1);
    EXPECT_NE(bad.err.find("--format must be md, html, csv, json, claims-csv or checks-csv"),
              std::string::npos)
        << bad.err;
}

// --claims: the question and claims of another file (written after the run) open the report;
// a bad file is refused with its position and nothing is written.
TEST(ReportCliTest, ClaimsOfAnotherFile) {
    const fs::path claims = out_dir() / "claims.toml";
    std::ofstream(claims) << R"(question = "Does 17 write less WAL at TPC-B?"
[servers.pg16]
version = "16"
[servers.pg17]
version = "17"
[matrix]
server = ["pg16", "pg17"]
clients = [5, 10, 20]
[[steps]]
type = "bench"
name = "tpcb"
[[claims]]
text = "17 writes as much WAL as 16"
step = "tpcb"
metric = "probe:wal.bytes"
ratio = ["server=pg17 clients=10", "server=pg16 clients=10"]
paper = 1.0
tolerance = 0.05
)";
    const auto md =
        pglab({"report", k_fixture, "--claims", claims.string(), "--format", "md", "-o", "-"});
    ASSERT_EQ(md.exit_code, 0) << support::describe(md);
    EXPECT_NE(md.out.find("Question: Does 17 write less WAL at TPC-B?"), std::string::npos)
        << md.out;
    EXPECT_NE(md.out.find("| 17 writes as much WAL as 16 | ratio 1.000 (±5%) |"), std::string::npos)
        << md.out;
    EXPECT_EQ(md.out.find("17 vacuums 5.7x faster"), std::string::npos); // not the fixture's

    std::ofstream(claims) << "[[claims]]\ntext = \"x\"\nstep = \"tpcb\"\nratio = [\"a\"]\n";
    const auto bad =
        pglab({"report", k_fixture, "--claims", claims.string(), "--format", "md", "-o", "-"});
    EXPECT_EQ(bad.exit_code, 1);
    EXPECT_TRUE(bad.out.empty()) << bad.out;
    EXPECT_NE(bad.err.find("claims.toml:"), std::string::npos) << bad.err;
}

TEST(ReportCliTest, CompareGateFailsOnlyOnASignificantSlowdown) {
    // pg16 is significantly slower than pg17 at VACUUM (about 20%), not at the index-only scan;
    // only the cells of 3 runs a side are compared (clients=10).
    const auto faster = pglab({"compare", k_fixture, "--by", "server=pg16,pg17", "--step", "vacuum",
                               "--fail-if-slower", "0"});
    EXPECT_EQ(faster.exit_code, 0) << support::describe(faster);
    // The fixture ran in rounds: judged in pairs, the interval is the report's (0.785 – 0.878).
    EXPECT_NE(faster.out.find("pg17 is 17.0% faster (95% CI 12.2–21.5%), judged in pairs over 3 "
                              "rounds"),
              std::string::npos)
        << faster.out;
    EXPECT_EQ(faster.out.find("What differs between pg16 and pg17 besides the figures:\n  - "
                              "server version: 16.12 in pg16; 17.8 in pg17\n"),
              0U)
        << faster.out;
    const auto slower = pglab({"compare", k_fixture, "--by", "server=pg17,pg16", "--step", "vacuum",
                               "--metric", "server_ms", "--fail-if-slower", "5"});
    EXPECT_EQ(slower.exit_code, 1) << support::describe(slower);
    EXPECT_NE(slower.err.find("pglab: error: vacuum server time in clients=10: pg16 is 20.4% "
                              "slower"),
              std::string::npos)
        << slower.err;
    const auto within = pglab({"compare", k_fixture, "--by", "server=pg17,pg16", "--step", "vacuum",
                               "--metric", "server_ms", "--fail-if-slower", "50"});
    EXPECT_EQ(within.exit_code, 0) << support::describe(within);
    const auto noise = pglab({"compare", k_fixture, "--by", "server=pg17,pg16", "--step", "ios",
                              "--metric", "execution_ms", "--fail-if-slower", "0"});
    EXPECT_EQ(noise.exit_code, 0) << support::describe(noise);
    EXPECT_NE(noise.out.find("no significant difference"), std::string::npos);
    const auto md = pglab({"compare", k_fixture, "--a", "server=pg16", "--b", "server=pg17",
                           "--format", "md", "--step", "vacuum"});
    ASSERT_EQ(md.exit_code, 0);
    EXPECT_EQ(md.out.rfind("# pg17 vs pg16\n", 0), 0U) << md.out;
}

} // namespace

namespace {

// A real `pglab run` of a small experiment, then its report and a comparison: keeps the reader
// in step with what the orchestrator writes (the fixture is hand-made).
TEST(ReportCliTest, ReportAndCompareOfARealRun) {
    const fs::path dir = out_dir() / "real-run";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path exp = dir / "exp.toml";
    std::ofstream(exp) << R"(name = "report-real"
repeat = 2
order = "interleaved"
seed = 7

[matrix]
clients = [1, 2]
scale = 1
duration = 1

[[steps]]
type = "init"
once = true

[[steps]]
type = "bench"
name = "tpcb"
options = ["--jobs=1"]

[[steps]]
type = "timed-sql"
name = "vacuum"
sql = "VACUUM pgbench_accounts"

[[steps]]
type = "explain"
name = "ios"
sql = "SELECT aid FROM pgbench_accounts WHERE aid < 5001"
)";
    const fs::path results = dir / "results";
    const auto run = support::run_command(
        {support::pglab_binary(), "run", exp.string(), "--results", results.string()}, {}, {},
        std::chrono::seconds(300));
    ASSERT_EQ(run.exit_code, 0) << support::describe(run);

    const auto report = pglab({"report", results.string()});
    ASSERT_EQ(report.exit_code, 0) << support::describe(report);
    EXPECT_EQ(report.err.find("warning: " + results.string()), std::string::npos)
        << "the reader found problems in a fresh results directory:\n"
        << report.err;
    const std::string md = read_file(results / "report.md");
    EXPECT_NE(md.find("runs: 4 finished (4 ok, 0 failed, 0 warm-ups) of 4 planned"),
              std::string::npos)
        << md;
    for (const char* heading :
         {"## Step tpcb (bench)", "### tps", "### latency average (ms)",
          "## Step vacuum (timed-sql)", "### server time (ms)", "## Step ios (explain)",
          "### execution time (ms)", "### buffer hit ratio (%)", "### wal.bytes (MB)"}) {
        EXPECT_NE(md.find(heading), std::string::npos) << heading << "\n" << md;
    }
    EXPECT_NE(md.find("| clients=2 | 2 |"), std::string::npos) << md;
    EXPECT_TRUE(fs::exists(results / "report.html"));

    const auto cmp =
        pglab({"compare", results.string(), "--by", "clients=1,2", "--format", "json"});
    ASSERT_EQ(cmp.exit_code, 0) << support::describe(cmp);
    const auto doc = nlohmann::json::parse(cmp.out);
    EXPECT_FALSE(doc.at("rows").empty());
}

} // namespace
