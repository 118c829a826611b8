// `pglab run` ends with the answer (issue 62, stage 5): the report written into the results
// directory and one line per claim, its verdict, the measured figure and its 95% interval;
// `--no-report` ends at the results as before. A claim without a source is the user's: the
// report's Answer table shows its figure under "claimed", never under "paper".
#include "support/files.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabRunAnswer = support::LabTestDir;

constexpr const char* k_naps = R"toml(name = "naps"
question = "Does a longer sleep take longer?"
repeat = 3

[matrix]
params.ms = [10, 20]

[[steps]]
type = "timed-sql"
name = "nap"
sql = "SELECT pg_sleep(${params.ms} / 1000.0)"

[[claims]]
text = "20 ms naps take twice as long as 10 ms naps"
step = "nap"
metric = "client_ms"
ratio = ["params.ms=20", "params.ms=10"]
paper = 2.0
tolerance = 0.2
)toml";

TEST_F(LabRunAnswer, TheRunEndsWithTheReportWrittenAndEachClaimsVerdict) {
    const fs::path file = write("naps.toml", k_naps);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_NE(r.out.find("results: " + results.string()
                         + "\nanswer: Does a longer sleep take "
                           "longer?\n"),
              std::string::npos)
        << r.out;
    // Whatever this machine's sleeps measure, the line gives a verdict, the figure and its
    // interval (3 paired rounds).
    const std::regex claim(R"(\n  (agrees|differs|inconclusive): 20 ms naps take twice as long )"
                           R"(as 10 ms naps: [0-9.]+ \(95% CI [0-9.]+ – [0-9.]+\) = )");
    EXPECT_TRUE(std::regex_search(r.out, claim)) << r.out;
    EXPECT_NE(r.out.find("\nreport: " + (results / "report.md").string() + "\n"), std::string::npos)
        << r.out;
    ASSERT_TRUE(fs::exists(results / "report.html"));
    const std::string md = support::read_file(results / "report.md");
    EXPECT_NE(md.find("| claim | claimed | measured (95% CI) | verdict |"), std::string::npos)
        << md;
    EXPECT_EQ(md.find("| paper |"), std::string::npos) << md;
}

TEST_F(LabRunAnswer, NoReportEndsAtTheResults) {
    const fs::path file = write("naps.toml", k_naps);
    const fs::path results = m_dir / "results";
    const auto r = support::run_command({support::pglab_binary(), "run", file.string(), "--results",
                                         results.string(), "--no-report"},
                                        env());
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_EQ(r.out, "results: " + results.string() + "\n");
    EXPECT_FALSE(fs::exists(results / "report.md"));
    // `pglab report` writes it later, the same.
    const auto report =
        support::run_command({support::pglab_binary(), "report", results.string()}, env());
    ASSERT_EQ(report.exit_code, 0) << support::describe(report);
    EXPECT_TRUE(fs::exists(results / "report.md"));
}

} // namespace
