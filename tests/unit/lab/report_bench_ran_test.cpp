// tests/unit/lab: what each bench step ran, by cell: the arguments it was given, the duration and
// transactions it measured (median and range), and a warning for a bench that measured under a
// second (issue 62: `-t 100` made benches of 0.09–0.17 s that nothing in the report showed).
#include "lab/report/bench_runs.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pglab::lab::report {
namespace {

FinishedRun bench_run(std::size_t run, std::size_t cell, double duration_s, double transactions,
                      std::vector<std::string> arguments, bool warmup = false) {
    store::RunRecord r;
    r.run = run;
    r.cell = cell;
    r.warmup = warmup;
    store::StepRecord s;
    s.key = "b";
    s.type = "bench";
    store::BenchStep bench;
    bench.arguments = std::move(arguments);
    bench.document = {{"totals", {{"duration_s", duration_s}, {"transactions", transactions}}}};
    s.details = bench;
    r.steps.push_back(s);
    return {run + 1, r};
}

std::string label(std::int64_t cell) {
    return "clients=" + std::to_string(cell == 0 ? 1 : 4);
}

TEST(ReportBenchRanTest, EachCellSaysWhatItRanAndHowLong) {
    ResultsDir results;
    results.runs = {bench_run(0, 0, 10.0, 1200, {"--client=1", "--time=10"}),
                    bench_run(1, 1, 0.12, 100, {"--client=4", "-t", "100"}),
                    bench_run(2, 0, 10.02, 1180, {"--client=1", "--time=10"}),
                    bench_run(3, 1, 0.09, 100, {"--client=4", "-t", "100"}),
                    bench_run(4, 1, 30.0, 9999, {"--client=4"}, /*warmup=*/true)};
    const std::vector<BenchRan> ran = bench_ran(results, "b");
    ASSERT_EQ(ran.size(), 2U);
    EXPECT_EQ(ran[1].runs, (std::vector<std::int64_t>{1, 3})); // not the warm-up
    const Table t = bench_ran_table(ran, label);
    ASSERT_EQ(t.rows.size(), 2U);
    EXPECT_EQ(t.rows[0], (std::vector<std::string>{"clients=1", "`--client=1 --time=10`",
                                                   "10.01 (10.00 – 10.02)", "1190 (1180 – 1200)"}));
    EXPECT_EQ(t.rows[1][1], "`--client=4 -t 100`");
    EXPECT_EQ(t.rows[1][3], "100");

    const std::vector<std::string> warnings = short_bench_warnings("b", ran, label);
    ASSERT_EQ(warnings.size(), 1U);
    EXPECT_EQ(warnings[0], "Step b (clients=4): the benchmark measured under a second in runs 1, "
                           "3 (0.090 – 0.120 s): its figures are mostly its first and last "
                           "transactions; give it a longer duration or more transactions");
}

} // namespace
} // namespace pglab::lab::report
