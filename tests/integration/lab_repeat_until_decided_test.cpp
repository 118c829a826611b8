// `repeat = { min, max, until = "decided" }` end to end: rounds are added for the cells of
// undecided claims only, until each is decided or a cell has `max` runs, the report says which;
// a run killed during an added round is resumed with the same plan.
//
// The figures are deterministic: step "alt" returns 30 rows in odd repetitions of a cell, 10 in
// even ones, so its geometric mean and log-scale interval after n runs are known.
// With a band of 20 ± 60% ([8, 32]) a single look's 90% interval would first lie inside at 6
// runs (10.6 - 28.4); the plan's looks (one at each of 3 to 10 runs), each reading the wider
// interval the group-sequential design gives it, decide it at 8 (96.2%: 10.21 - 29.38); with
// 20 ± 1% no number of runs up to the maximum decides it.
// Step "count" returns 5 rows in every run: exact, decided by the first `min` runs.
#include "support/background.hpp"
#include "support/run_command.hpp"
#include "support/wait.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

std::string experiment(const std::string& repeat, double tolerance,
                       const std::string& extra_step = "") {
    return R"toml(name = "until-decided"
repeat = )toml"
           + repeat + R"toml(
order = "interleaved"
seed = 11

[matrix]
params.n = [1, 2]
)toml" + extra_step
           + R"toml(
[[steps]]
type = "timed-sql"
name = "count"
sql = "SELECT g FROM generate_series(1, 5) g"

[[steps]]
type = "timed-sql"
name = "alt"
sql = "SELECT g FROM generate_series(1, CASE WHEN ${repetition} % 2 = 1 THEN 30 ELSE 10 END) g"

[[claims]]
text = "the count is 5"
step = "count"
metric = "rows"
cell = "params.n=1"
paper = 5
tolerance = 0

[[claims]]
text = "about 20 rows"
step = "alt"
metric = "rows"
cell = "params.n=2"
paper = 20
tolerance = )toml"
           + std::to_string(tolerance) + "\n";
}

using LabRepeatUntilDecided = support::LabTestDir;

/// Measured runs of each cell in plan.json.
std::map<int, int> runs_per_cell(const fs::path& results) {
    std::ifstream in(results / "plan.json");
    const nlohmann::json plan = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    std::map<int, int> out;
    if (plan.is_discarded()) { // not written yet
        return out;
    }
    for (const auto& r : plan["runs"]) {
        if (!r["warmup"].get<bool>()) {
            ++out[r["cell"].get<int>()];
        }
    }
    return out;
}

std::string answer(const fs::path& results) {
    const auto r = support::run_command(
        {support::pglab_binary(), "report", results.string(), "--format", "md", "-o", "-"});
    EXPECT_EQ(r.exit_code, 0) << support::describe(r);
    return r.out;
}

TEST_F(LabRepeatUntilDecided, RoundsForTheUndecidedCellUntilItsClaimIsDecided) {
    const fs::path file =
        write("u.toml", experiment("{ min = 3, max = 10, until = \"decided\" }", 0.6));
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_NE(r.err.find("repeat until decided: every claim is decided"), std::string::npos)
        << r.err;
    // The answer `pglab run` prints names the look each verdict was read at.
    EXPECT_NE(r.out.find("  agrees: about 20 rows: 17.32 (geometric mean; 95% CI 10.60 – 28.30); "
                         "decided at look 6 of at most 8, with 8 runs of the cell\n"),
              std::string::npos)
        << r.out;
    // The count, the same in every run, is decided by its first 3 runs (its one-point interval
    // is inside at any level); the other cell runs until 8.
    EXPECT_EQ(runs_per_cell(results), (std::map<int, int>{{0, 3}, {1, 8}}));
    EXPECT_EQ(lines(results).size(), 11U);
    const std::string md = answer(results);
    EXPECT_NE(md.find("agrees: its 99.934% interval (5.000 – 5.000) lies within 5.000 ± 0%; "
                      "decided at look 1 of at most 8, with 3 runs of the cell"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("agrees: its 96.2% interval (10.21 – 29.38) lies within 20.00 ± 60%; decided "
                      "at look 6 of at most 8, with 8 runs of the cell"),
              std::string::npos)
        << md;
    expect_clean();
}

TEST_F(LabRepeatUntilDecided, StopsAtMaxAndSaysWhy) {
    const fs::path file =
        write("u.toml", experiment("{ min = 2, max = 5, until = \"decided\" }", 0.01));
    const fs::path results = m_dir / "results";
    const auto dry =
        support::run_command({support::pglab_binary(), "run", file.string(), "--dry-run"}, env());
    ASSERT_EQ(dry.exit_code, 0) << support::describe(dry);
    EXPECT_NE(dry.out.find("repeat until decided: 2 to 5 runs of each cell; time at most: "),
              std::string::npos)
        << dry.out;
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_NE(r.err.find("claims are still undecided after 5 runs of each of their cells (max)"),
              std::string::npos)
        << r.err;
    // The count, the same in its first 2 runs, is not exact unless declared: it needs a third
    // run for its (one-point) interval; the other cell runs to the most allowed.
    EXPECT_EQ(runs_per_cell(results), (std::map<int, int>{{0, 3}, {1, 5}}));
    const std::string md = answer(results);
    EXPECT_NE(md.find("still undecided at look 3 of at most 3, with 5 runs of the cell, the most "
                      "`repeat` allows"),
              std::string::npos)
        << md;
    expect_clean();
}

TEST_F(LabRepeatUntilDecided, AKilledRoundIsResumedWithTheSamePlan) {
    // A pause in every run, so that the kill lands inside an added round.
    const fs::path file =
        write("u.toml", experiment("{ min = 3, max = 10, until = \"decided\" }", 0.6,
                                   "\n[[steps]]\ntype = \"sleep\"\nduration = \"300ms\"\n"));
    const fs::path results = m_dir / "results";
    support::Background run(
        {support::pglab_binary(), "run", file.string(), "--results", results.string()}, m_tmp,
        m_dir / "run.err");
    ASSERT_GT(run.pid(), 0);
    // The first added round is planned (7 runs in plan.json) and its run has begun.
    EXPECT_TRUE(support::wait_until(
        [&] {
            const auto runs = runs_per_cell(results);
            return runs.count(1) && runs.at(1) >= 4 && fs::exists(results / "runs" / "0006");
        },
        std::chrono::seconds(60)));
    ::kill(run.pid(), SIGKILL);
    run.wait();
    const auto r =
        support::run_command({support::pglab_binary(), "run", "--resume", results.string()}, env());
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_EQ(runs_per_cell(results), (std::map<int, int>{{0, 3}, {1, 8}}));
    EXPECT_EQ(lines(results).size(), 11U);
    expect_clean();
}

} // namespace
