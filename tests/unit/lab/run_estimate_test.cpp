// The --dry-run time estimate: bench durations per cell, sleeps and blocking checks counted;
// init, benches by transaction count and statements named as not estimated, with their timeouts;
// with an earlier run's results, those steps timed as it timed them (issue 62, stage 4).
#include "lab/plan/plan.hpp"
#include "lab/run/estimate.hpp"
#include "lab/run/stored_times.hpp"
#include "lab/store/results_store.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

#include "experiment_test_util.hpp"
#include "temp_dir_test_base.hpp"

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

namespace fs = std::filesystem;

/// A results directory of experiment `name` written as a run writes one: each run a once init
/// (in its first run only) and a bench of 100 transactions a client whose time grows with its
/// cell's clients.
class StoredTimesTest : public testing::TempDirTest {
protected:
    /// `scale` > 0: the init records its arguments (--scale=N) and takes 1 s + 0.3 s a unit.
    fs::path write_results(const std::string& leaf, const std::string& name, bool quick,
                           const std::string& created_at, int scale = 0) {
        store::PlanRecord plan;
        plan.experiment = name;
        plan.quick = quick;
        plan.created_at = created_at;
        const std::vector<std::pair<std::size_t, int>> runs = {{0, 1}, {1, 2}, {0, 1}, {1, 2}};
        for (std::size_t i = 0; i < runs.size(); ++i) {
            plan.runs.push_back(
                {i, runs[i].first, static_cast<std::uint32_t>(i / 2 + 1), false, 1});
        }
        const fs::path dir = m_dir / leaf;
        auto created = store::ResultsStore::create(dir, "", plan);
        EXPECT_TRUE(created.has_value());
        for (std::size_t i = 0; i < runs.size(); ++i) {
            const int clients = runs[i].second;
            nlohmann::json steps = nlohmann::json::array();
            if (i == 0 && scale > 0) {
                steps.push_back({{"index", 0},
                                 {"key", "0:init"},
                                 {"type", "init"},
                                 {"status", "ok"},
                                 {"arguments", {"--scale=" + std::to_string(scale)}},
                                 {"elapsed_ms", 1000.0 + 300.0 * scale}});
            } else if (i == 0) {
                steps.push_back({{"index", 0},
                                 {"key", "0:init"},
                                 {"type", "init"},
                                 {"status", "ok"},
                                 {"elapsed_ms", 4000.0}});
            } else {
                steps.push_back({{"index", 0},
                                 {"key", "0:init"},
                                 {"type", "init"},
                                 {"status", "skipped"},
                                 {"skip_reason", "once"}});
            }
            // 100 transactions a client at 2 ms each.
            const double transactions = 100.0 * clients;
            steps.push_back(
                {{"index", 1},
                 {"key", "1:bench"},
                 {"type", "bench"},
                 {"status", "ok"},
                 {"elapsed_ms", 2.0 * transactions},
                 {"bench",
                  {{"version", "pglab.bench/1"}, {"totals", {{"transactions", transactions}}}}}});
            const nlohmann::json line = {
                {"version", "pglab.run/1"},
                {"run", i},
                {"cell", runs[i].first},
                {"label", fmt::format("clients={}", clients)},
                {"repetition", i / 2 + 1},
                {"round", 1},
                {"warmup", false},
                {"status", "ok"},
                {"steps", steps},
                {"timings",
                 {{"total_ms", 2.0 * transactions + (i == 0 ? 4000.0 : 0.0) + 500.0},
                  {"steps_ms", 2.0 * transactions + (i == 0 ? 4000.0 : 0.0)},
                  {"server_ms", 500.0},
                  {"overhead_ms", 0.0},
                  {"restarts", 0}}}};
            auto record = store::run_record_from_json(line);
            EXPECT_TRUE(record.has_value()) << (record ? "" : record.error().message);
            EXPECT_TRUE(created->append_run(*record));
        }
        return dir;
    }
};

const char* const k_counted = R"toml(
name = "est"
repeat = 2

[matrix]
clients = [1, 2]

[[steps]]
type = "init"
once = true

[[steps]]
type = "bench"
)toml";

TEST_F(StoredTimesTest, AnEarlierRunTimesWhatTheFileCannot) {
    const fs::path dir = write_results("earlier", "est", false, "2026-12-06T10:00:00+00:00");
    const auto times = read_stored_times(dir, "est");
    ASSERT_TRUE(times.has_value());
    EXPECT_EQ(times->runs, 4U);
    EXPECT_EQ(times->date, "2026-12-06");
    EXPECT_DOUBLE_EQ(times->server_ms_per_run, 500.0);
    EXPECT_EQ(times->time_of("0:init", "clients=1"), 4000.0);
    EXPECT_EQ(times->time_of("1:bench", "clients=2"), 400.0);
    EXPECT_EQ(times->time_of("1:bench", "clients=9"), 300.0); // a cell it never ran: every cell's
    EXPECT_EQ(times->transaction_time_of("1:bench", "clients=2"), 2.0);
    EXPECT_FALSE(times->time_of("2:sql", "clients=1").has_value());
    EXPECT_FALSE(read_stored_times(dir, "another").has_value());

    // 1,000 transactions a client where the earlier run ran 100: its time per transaction scales.
    std::string text = k_counted;
    text.replace(text.find("[matrix]"), 8, "[matrix]\ntransactions = 1000");
    const experiment::ExperimentSpec s = experiment::testing::parse_ok(text);
    const auto plan = plan::build_plan(s, 1);
    ASSERT_TRUE(plan.has_value());
    const TimeEstimate e = estimate_plan(s, *plan, &*times);
    EXPECT_TRUE(e.unknown.empty());
    EXPECT_EQ(e.known_ms, 0);
    // 4 runs of 0.5 s for the servers, one init of 4 s, 2 x 2 s + 2 x 4 s of transactions.
    EXPECT_EQ(e.measured_ms, 2'000 + 4'000 + 12'000);
    EXPECT_EQ(describe(e),
              "about 18s (bench durations and sleeps from the file; the other steps, and 0.5 s a "
              "run for the servers, as 4 runs of "
                  + dir.string() + " measured them on 2026-12-06)");
}

TEST_F(StoredTimesTest, TheNewestOfTheSameFormIsChosenElseTheOtherForm) {
    const fs::path older = write_results("older", "est", false, "2026-12-05T10:00:00+00:00");
    const fs::path newer = write_results("newer", "est", false, "2026-12-06T10:00:00+00:00");
    const fs::path quick = write_results("quick", "est-quick", true, "2026-12-07T10:00:00+00:00");
    const fs::path other = write_results("other", "another", false, "2026-12-08T10:00:00+00:00");
    const std::vector<fs::path> all = {older, quick, other, newer, m_dir / "missing"};
    EXPECT_EQ(newest_stored_times(all, "est", false)->dir, newer);
    EXPECT_EQ(newest_stored_times(all, "est-quick", true)->dir, quick);
    // No quick run of its own: the full form's, said so.
    const auto full = newest_stored_times({older, newer}, "est-quick", true);
    ASSERT_TRUE(full.has_value());
    EXPECT_EQ(full->dir, newer);
    EXPECT_FALSE(full->quick);
    EXPECT_FALSE(newest_stored_times({other}, "est", false).has_value());
}

// An init no earlier run of the experiment timed is timed by a model fitted to the inits of
// earlier runs of any experiment, against their scale, and the estimate says so.
TEST_F(StoredTimesTest, AnInitNothingTimedIsTimedByAModelOfTheOthers) {
    const fs::path small = write_results("small", "other", false, "2026-12-01T00:00:00Z", 1);
    const fs::path large = write_results("large", "another", false, "2026-12-02T00:00:00Z", 10);
    const auto model = fit_init_model({small, large, m_dir / "missing"});
    ASSERT_TRUE(model.has_value());
    EXPECT_EQ(model->inits, 2U);
    EXPECT_NEAR(model->fixed_ms, 1000.0, 1e-6);
    EXPECT_NEAR(model->ms_per_scale, 300.0, 1e-6);
    EXPECT_NEAR(model->time_at(5), 2500.0, 1e-6);
    // One init is no line.
    EXPECT_FALSE(fit_init_model({small}).has_value());

    std::string text = k_counted;
    text.replace(text.find("[matrix]"), 8, "[matrix]\nduration = 10\nscale = 5");
    const experiment::ExperimentSpec s = experiment::testing::parse_ok(text);
    const auto plan = plan::build_plan(s, 1);
    ASSERT_TRUE(plan.has_value());
    const TimeEstimate e = estimate_plan(s, *plan, nullptr, &*model);
    EXPECT_TRUE(e.unknown.empty());
    EXPECT_EQ(e.modelled_inits, 1U);
    EXPECT_EQ(e.measured_ms, 2500);
    EXPECT_EQ(describe(e), "about 43s (bench durations, sleeps, blocking checks from the file; 1 "
                           "init by a model fitted to 2 inits of earlier runs (1.0 s + 0.30 s "
                           "per scale unit))");
}

} // namespace
} // namespace pglab::lab::run
