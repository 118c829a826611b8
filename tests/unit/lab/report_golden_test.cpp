// The report of the stored results fixture (tests/golden/report/results-fixture, written by
// make_fixture.py beside it) against the golden report.md, and its CSV and JSON exports.
// PGLAB_UPDATE_GOLDEN=1 rewrites the golden file instead of comparing.
#include "lab/report/report.hpp"
#include "lab/report/results.hpp"
#include "util/text_file.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "report_golden.hpp"

namespace pglab::lab::report {
namespace {

namespace fs = std::filesystem;

const fs::path k_fixture = golden::k_dir / "results-fixture";

std::string read_file(const fs::path& p) {
    return pglab::util::read_text_file(p).value_or("");
}

Report fixture_report(const ResultsDir& results) {
    ReportOptions options; // no gnuplot: tables only, the same on every machine
    options.output_dir = fs::temp_directory_path();
    return build_report(results, options);
}

TEST(ReportGoldenTest, MarkdownMatchesGolden) {
    const auto results = load_results(k_fixture);
    ASSERT_TRUE(results.has_value()) << results.error().message;
    const std::string md = render_markdown(fixture_report(*results).document) + "\n";
    const fs::path golden = golden::k_dir / "report.md";
    if (std::getenv("PGLAB_UPDATE_GOLDEN") != nullptr) { // NOLINT(concurrency-mt-unsafe)
        std::ofstream(golden, std::ios::binary) << md;
        GTEST_SKIP() << "rewrote " << golden;
    }
    const std::string expected = read_file(golden);
    ASSERT_FALSE(expected.empty()) << golden << " is missing; run with PGLAB_UPDATE_GOLDEN=1";
    EXPECT_EQ(md, expected) << "the report of " << k_fixture << " changed; if on purpose, run "
                            << "the test with PGLAB_UPDATE_GOLDEN=1 and review the diff";
}

TEST(ReportGoldenTest, ReportSaysWhatIsMissingAndWhy) {
    const auto results = load_results(k_fixture);
    ASSERT_TRUE(results.has_value());
    const Report report = fixture_report(*results);
    const std::string md = render_markdown(report.document);
    // Every defect of the fixture is named in plain words.
    EXPECT_NE(md.find("results.jsonl line 15: not valid JSON; the line is skipped"),
              std::string::npos);
    EXPECT_NE(md.find("results.jsonl line 24: incomplete last line"), std::string::npos);
    EXPECT_NE(md.find("2 of 24 planned runs have no results"), std::string::npos);
    EXPECT_NE(md.find("Run 9 (server=pg16 clients=5, repetition 1) failed at step tpcb"),
              std::string::npos);
    EXPECT_NE(md.find("high variation between runs"), std::string::npos);
    EXPECT_NE(md.find("a checkpoint happened during the measurement"), std::string::npos);
    EXPECT_NE(md.find("client-bound"), std::string::npos);
    EXPECT_NE(md.find("too few measured runs"), std::string::npos);
    EXPECT_NE(md.find("apt-get install gnuplot-nox"), std::string::npos);
    // Environment.
    EXPECT_NE(md.find("Intel(R) Xeon(R) CPU @ 2.20GHz, 2 cores, 24.0 GiB memory"),
              std::string::npos);
    EXPECT_NE(md.find("order interleaved, seed 42 (file)"), std::string::npos);
    EXPECT_NE(md.find("| pg17 | 17.8 |"), std::string::npos);
    EXPECT_NE(md.find("`--data-checksums`"), std::string::npos);
    EXPECT_NE(md.find("`shared_buffers=256MB`"), std::string::npos);
}

TEST(ReportGoldenTest, CsvAndJsonExportTheAggregatedCells) {
    const auto results = load_results(k_fixture);
    ASSERT_TRUE(results.has_value());
    const Report report = fixture_report(*results);
    const std::string csv = export_csv(*results, report.steps);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "step,step_type,metric,unit,cell,label,n,mean,stddev,median,min,max,ci95_low,"
              "ci95_high,cv");
    EXPECT_NE(csv.find("vacuum,timed-sql,server_ms,ms,5,server=pg17 clients=20 scale=10 "
                       "duration=10,3,"),
              std::string::npos);
    const auto doc = nlohmann::json::parse(export_json(*results, report));
    EXPECT_EQ(doc["version"], "pglab.report/1");
    EXPECT_EQ(doc["problems"].size(), 2U);
    bool found = false;
    for (const auto& step : doc["steps"]) {
        for (const auto& m : step["metrics"]) {
            if (step["key"] == "tpcb" && m["id"] == "tps") {
                found = true;
                EXPECT_EQ(m["cells"].size(), 6U);
                for (const auto& c : m["cells"]) {
                    EXPECT_EQ(c["n"], c["samples"].size());
                }
            }
        }
    }
    EXPECT_TRUE(found);
}

// A server run in a memory cgroup with slowed syncs: the Servers table gains a column that says
// so (the golden report, without emulation, has none).
TEST(ReportGoldenTest, ServersTableShowsTheEmulatedMachine) {
    const fs::path dir =
        fs::temp_directory_path() / ("pglab-emulated-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::copy(k_fixture, dir, fs::copy_options::recursive);
    std::ifstream in(k_fixture / "results.jsonl");
    std::ofstream out(dir / "results.jsonl", std::ios::trunc);
    std::string line;
    while (std::getline(in, line)) {
        const std::string pg16 = "\"server\":{\"name\":\"pg16\",";
        if (const auto at = line.find(pg16); at != std::string::npos) {
            line.insert(at + pg16.size(),
                        "\"memory_limit_bytes\":805306368,\"sync_delay_us\":2000,");
        }
        out << line << '\n';
    }
    out.close();
    const auto results = load_results(dir);
    ASSERT_TRUE(results.has_value()) << results.error().message;
    const std::string md = render_markdown(fixture_report(*results).document);
    fs::remove_all(dir);
    EXPECT_NE(md.find("| initdb options | settings set by the experiment | emulated machine |"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("`shared_buffers=256MB` | memory limit 768 MiB, each sync +2 ms |"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("`shared_buffers=256MB` | none |"), std::string::npos) << md; // pg17
}

} // namespace
} // namespace pglab::lab::report
