// Runs that stand apart: the robust z-score on fixed values, the cold first run, and both as
// the report's warnings.
#include "lab/report/outliers.hpp"
#include "lab/report/report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <vector>

#include "finished_runs.hpp"

namespace pglab::lab::report {
namespace {

using experiment::Direction;

TEST(ReportOutliersTest, ARunBeyondTheOthers) {
    EXPECT_EQ(outlier_positions(std::vector<double>{100, 101, 99, 100.5, 140}),
              (std::vector<std::size_t>{4}));
    // A run 3% off among runs 1% apart is not one.
    EXPECT_TRUE(outlier_positions(std::vector<double>{100, 101, 99, 100.5, 103}).empty());
    // Too few values to tell, or most values identical (no spread to measure against).
    EXPECT_TRUE(outlier_positions(std::vector<double>{100, 101, 140}).empty());
    EXPECT_TRUE(outlier_positions(std::vector<double>{5, 5, 5, 5, 9}).empty());
}

TEST(ReportOutliersTest, AColdFirstRun) {
    const std::vector<double> times = {150, 100, 101, 99};
    EXPECT_TRUE(slowest_by_far(times, 0, Direction::lower_is_better));
    EXPECT_FALSE(slowest_by_far(times, 1, Direction::lower_is_better));
    EXPECT_FALSE(slowest_by_far(times, 0, Direction::neutral));
    // For a rate, slow is small.
    EXPECT_TRUE(
        slowest_by_far(std::vector<double>{600, 1000, 1010, 990}, 0, Direction::higher_is_better));
    EXPECT_FALSE(
        slowest_by_far(std::vector<double>{1500, 1000, 1010, 990}, 0, Direction::higher_is_better));
    // Slowest, but within the others' own spread: not by far.
    EXPECT_FALSE(
        slowest_by_far(std::vector<double>{106, 100, 105, 99}, 0, Direction::lower_is_better));
}

TEST(ReportOutliersTest, TheReportWarnsOfBoth) {
    using nlohmann::json;
    ResultsDir r;
    r.name = "outliers";
    r.variables = {"params.n"};
    r.plan.emplace();
    r.plan->steps = {{0, "nap", "", "timed-sql", false, false, ""}};
    for (int64_t i = 0; i < 2; ++i) {
        Cell c;
        c.index = static_cast<std::size_t>(i);
        c.bindings = {{"params.n", {std::int64_t{i + 1}, {}}}};
        c.label = "params.n=" + std::to_string(i + 1);
        r.cells.push_back(c);
    }
    // Cell 0: its first run (the first on the server) is cold; cell 1: run 9 is beyond.
    const std::vector<double> cell0 = {150, 100, 101, 99, 100.5, 100};
    const std::vector<double> cell1 = {100, 100.5, 99.5, 300, 100, 101};
    int64_t run = 0;
    for (std::size_t i = 0; i < cell0.size(); ++i) {
        for (const auto& [cell, values] : {std::pair{0, &cell0}, std::pair{1, &cell1}}) {
            const json steps = json::array({{{"index", 0},
                                             {"key", "nap"},
                                             {"type", "timed-sql"},
                                             {"status", "ok"},
                                             {"client_ms", (*values)[i]},
                                             {"server_ms", (*values)[i] - 1}}});
            r.runs.push_back(testing::finished_run(run++, cell, steps));
        }
    }
    ReportOptions o;
    o.output_dir = std::filesystem::temp_directory_path();
    const std::string md = render_markdown(build_report(r, o).document);
    EXPECT_NE(md.find("Step nap: runs beyond the others of their cell (modified z-score above "
                      "3.5): client time of run 7 in params.n=2 (300.0)"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("Step nap: the first run after a server start was by far the slowest of "
                      "its cell: client time of run 0 in params.n=1 (150.0)"),
              std::string::npos)
        << md;
}

} // namespace
} // namespace pglab::lab::report
