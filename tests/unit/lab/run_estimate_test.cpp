// The --dry-run time estimate: bench durations per cell, sleeps and blocking checks counted;
// init, benches by transaction count and statements named as not estimated, with their timeouts.
#include "lab/plan/plan.hpp"
#include "lab/run/estimate.hpp"

#include <gtest/gtest.h>

#include "experiment_test_util.hpp"

namespace pglab::lab::run {
namespace {

TEST(RunEstimateTest, CountsWhatTheFileTellsAndNamesTheRest) {
    const experiment::ExperimentSpec s = experiment::testing::parse_ok(R"toml(
repeat = 2

[matrix]
duration = [10, 20]

[[steps]]
type = "init"
once = true

[[steps]]
type = "bench"
options = ["--time=${duration}"]

[[steps]]
type = "bench"
options = ["-T", "5"]

[[steps]]
type = "bench"
options = ["--transactions=100"]

[[steps]]
type = "sleep"
duration = "1s"

[[steps]]
type = "sql"
sql = "SELECT 1"
expect_blocked = "500ms"

[[steps]]
type = "timed-sql"
sql = "VACUUM"
timeout = "1min"
)toml");
    const auto plan = plan::build_plan(s, 1);
    ASSERT_TRUE(plan.has_value());
    const TimeEstimate e = estimate_plan(s, *plan);
    // 4 runs: (10 or 20) + 5 + 1 + 0.5 seconds each.
    EXPECT_EQ(e.known_ms, 2 * (10'000 + 20'000) + 4 * (5'000 + 1'000 + 500));
    EXPECT_EQ(e.unknown.at("init"), 1u); // once: one server, one scale
    EXPECT_EQ(e.unknown.at("bench by transactions"), 4u);
    EXPECT_EQ(e.unknown.at("timed-sql"), 4u);
    EXPECT_EQ(e.bounded_ms, 4 * 60'000);
    EXPECT_EQ(describe(e), "at least 1m26s (bench durations, sleeps, blocking checks); not "
                           "estimated: the steps whose time the file does not tell (4 bench by "
                           "transactions, 1 init, 4 timed-sql), some bounded by their timeouts "
                           "(up to 4m00s more)");
}

// Nothing known: no "at least 0s", only what is not estimated.
TEST(RunEstimateTest, OnlyTransactionCountsSaysSo) {
    const experiment::ExperimentSpec s = experiment::testing::parse_ok(R"toml(
repeat = 3

[[steps]]
type = "init"
once = true

[[steps]]
type = "bench"
options = ["--transactions=100"]
)toml");
    const auto plan = plan::build_plan(s, 1);
    ASSERT_TRUE(plan.has_value());
    EXPECT_EQ(describe(estimate_plan(s, *plan)),
              "not estimated: the steps whose time the file does not tell (3 bench by "
              "transactions, 1 init)");
}

// The duration is the option parser's: the matrix's, an abbreviation getopt accepts, or a
// transaction count that replaces the matrix's duration.
TEST(RunEstimateTest, TheDurationIsWhatTheBenchWillRun) {
    const experiment::ExperimentSpec s = experiment::testing::parse_ok(R"toml(
[matrix]
duration = [10]

[[steps]]
type = "bench"

[[steps]]
type = "bench"
options = ["--tim=3"]

[[steps]]
type = "bench"
options = ["-St", "100"]
)toml");
    const auto plan = plan::build_plan(s, 1);
    ASSERT_TRUE(plan.has_value());
    const TimeEstimate e = estimate_plan(s, *plan);
    EXPECT_EQ(e.known_ms, 13'000);
    EXPECT_EQ(e.unknown.at("bench by transactions"), 1u);
}

} // namespace
} // namespace pglab::lab::run
