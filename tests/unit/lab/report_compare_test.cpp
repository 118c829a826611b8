// `pglab compare`: cell pairing, verdict words and the --fail-if-slower gate, on results built in
// memory (S3b's VACUUM timings) and on the stored fixture.
#include "lab/report/compare.hpp"
#include "lab/report/results.hpp"
#include "lab/report/statistics.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "finished_runs.hpp"

namespace pglab::lab::report {
namespace {

using nlohmann::json;

/// A selector of the test's own, valid by construction.
Selector sel(std::string_view text) {
    return *experiment::parse_cell_selector(text);
}

/// A results directory with one timed-sql step "vacuum" whose server_ms of each cell are given.
struct CellRuns {
    std::string server;
    std::string where;
    std::vector<double> server_ms;
};

ResultsDir make_results(const std::vector<CellRuns>& cells, const std::string& dir = "r") {
    ResultsDir r;
    r.dir = dir;
    r.name = "vacuum";
    r.variables = {"server", "params.where"};
    int64_t run = 0;
    for (size_t i = 0; i < cells.size(); ++i) {
        Cell c;
        c.index = i;
        c.server = cells[i].server;
        c.bindings = {{"server", {cells[i].server, {}}}, {"params.where", {cells[i].where, {}}}};
        c.label = "server=" + cells[i].server + " params.where=" + cells[i].where;
        r.cells.push_back(c);
        for (const double ms : cells[i].server_ms) {
            const json steps = json::array({{{"index", 0},
                                             {"key", "vacuum"},
                                             {"type", "timed-sql"},
                                             {"status", "ok"},
                                             {"server_ms", ms},
                                             {"client_ms", ms + 1.0}}});
            r.runs.push_back(testing::finished_run(run, c.index, steps, true, false, c.label,
                                                   static_cast<std::size_t>(run + 1)));
            ++run;
        }
    }
    return r;
}

const std::vector<double> k_pg16_95 = {10431.0, 10212.5, 10655.1, 10390.7};
const std::vector<double> k_pg17_95 = {1815.0, 1790.2, 1841.9, 1822.4};
const std::vector<double> k_pg16_5 = {413.0, 409.5, 417.2};
const std::vector<double> k_pg17_5 = {414.1, 408.0, 416.6};

CompareOptions server_ms_only() {
    CompareOptions o;
    o.metrics = {"server_ms"};
    return o;
}

TEST(ReportCompareTest, VerdictsInWords) {
    const ResultsDir r = make_results({{"pg16", "95%", k_pg16_95},
                                       {"pg16", "5%", k_pg16_5},
                                       {"pg17", "95%", k_pg17_95},
                                       {"pg17", "5%", k_pg17_5}});
    const auto c = compare(CompareSide{&r, sel("server=pg16"), ""},
                           CompareSide{&r, sel("server=pg17"), ""}, server_ms_only());
    ASSERT_TRUE(c.has_value()) << c.error().message;
    EXPECT_EQ(c->name_a, "pg16");
    EXPECT_EQ(c->name_b, "pg17");
    ASSERT_EQ(c->rows.size(), 2U);
    const ComparisonRow& big = c->rows[0];
    EXPECT_EQ(big.cell, "params.where=95%");
    ASSERT_TRUE(big.welch_ba.has_value());
    // B/A and its interval are Welch/Fieller of pg17 against pg16.
    const auto w = welch(k_pg17_95, k_pg16_95);
    ASSERT_TRUE(w.has_value());
    EXPECT_DOUBLE_EQ(big.welch_ba->ratio, w->ratio);
    EXPECT_TRUE(big.significant);
    const std::string expected =
        fmt::format("pg17 is {:.2f}x faster (95% CI {:.2f}–{:.2f}x)", 1.0 / w->ratio,
                    1.0 / w->ratio_ci.high, 1.0 / w->ratio_ci.low);
    EXPECT_EQ(big.verdict, expected);
    EXPECT_EQ(big.verdict.substr(0, 13), "pg17 is 5.73x");
    ASSERT_TRUE(big.slowdown_pct.has_value());
    EXPECT_LT(*big.slowdown_pct, -80.0);
    const ComparisonRow& small = c->rows[1];
    EXPECT_EQ(small.cell, "params.where=5%");
    EXPECT_FALSE(small.significant);
    EXPECT_EQ(small.verdict.substr(0, 31), "no significant difference (p = ");
}

TEST(ReportCompareTest, GateFailsOnlyOnSignificantSlowdownsAboveTheLimit) {
    const ResultsDir r = make_results({{"pg16", "95%", k_pg16_95},
                                       {"pg16", "5%", k_pg16_5},
                                       {"pg17", "95%", k_pg17_95},
                                       {"pg17", "5%", k_pg17_5}});
    // pg17 -> pg16 is a 5.7x slowdown in one cell and no significant change in the other.
    const auto c = compare(CompareSide{&r, sel("server=pg17"), ""},
                           CompareSide{&r, sel("server=pg16"), ""}, server_ms_only());
    ASSERT_TRUE(c.has_value());
    const auto slower = slower_than(*c, 10.0);
    ASSERT_EQ(slower.size(), 1U);
    EXPECT_EQ(slower[0]->cell, "params.where=95%");
    EXPECT_EQ(slower[0]->verdict.substr(0, 18), "pg16 is 5.73x slow");
    EXPECT_TRUE(slower_than(*c, 500.0).empty()); // 473% slower is within a 500% budget
    // The other direction never fails the gate.
    const auto faster = compare(CompareSide{&r, sel("server=pg16"), ""},
                                CompareSide{&r, sel("server=pg17"), ""}, server_ms_only());
    ASSERT_TRUE(faster.has_value());
    EXPECT_TRUE(slower_than(*faster, 0.0).empty());
}

TEST(ReportCompareTest, TwoDirectoriesPairCellsWithEqualValues) {
    const ResultsDir before = make_results({{"pg17", "95%", k_pg17_95}}, "/tmp/before");
    const ResultsDir after =
        make_results({{"pg17", "95%", {1712.0, 1705.3, 1722.8}}}, "/tmp/after");
    const auto c =
        compare(CompareSide{&before, {}, ""}, CompareSide{&after, {}, ""}, server_ms_only());
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->name_a, "before");
    EXPECT_EQ(c->name_b, "after");
    ASSERT_EQ(c->rows.size(), 1U);
    EXPECT_EQ(c->rows[0].cell, "all runs");
    EXPECT_EQ(c->rows[0].verdict.substr(0, 15), "after is 5.7% f");
    const json doc = json::parse(comparison_json(*c));
    EXPECT_EQ(doc["version"], "pglab.compare/1");
    EXPECT_EQ(doc["rows"][0]["metric"], "server_ms");
    EXPECT_LT(doc["rows"][0]["p_value"].get<double>(), 0.05);
    EXPECT_NE(comparison_markdown(*c).find("| vacuum | server time (ms) | all runs |"),
              std::string::npos);
    EXPECT_NE(comparison_text(*c).find("after is 5.7% faster"), std::string::npos);
}

// Two cells of a plan run in rounds are compared round by round, as the report judges a claim's
// ratio, and each side shows the geometric mean its ratio is of (issue 62, stage 5).
TEST(ReportCompareTest, RunsMadeInRoundsAreComparedInPairs) {
    // Each round slower than the last; pg17 10% quicker than pg16 in every round.
    const std::vector<double> pg16 = {100, 200, 150, 120};
    const std::vector<double> pg17 = {90, 181, 136, 108};
    ResultsDir r = make_results({{"pg16", "95%", pg16}, {"pg17", "95%", pg17}});
    r.plan.emplace();
    r.plan->order = "interleaved";
    for (FinishedRun& f : r.runs) {
        f.record.round = static_cast<std::uint32_t>(f.record.run % 4 + 1);
    }
    const auto c = compare(CompareSide{&r, sel("server=pg16"), ""},
                           CompareSide{&r, sel("server=pg17"), ""}, server_ms_only());
    ASSERT_TRUE(c.has_value()) << c.error().message;
    ASSERT_EQ(c->rows.size(), 1U);
    const ComparisonRow& row = c->rows[0];
    EXPECT_EQ(row.rounds, 4U);
    const auto paired = paired_test(pg17, pg16);
    ASSERT_TRUE(paired.has_value() && row.welch_ba.has_value());
    EXPECT_TRUE(row.welch_ba->paired);
    EXPECT_DOUBLE_EQ(row.welch_ba->ratio, paired->ratio);
    EXPECT_DOUBLE_EQ(row.welch_ba->ratio_ci.low, paired->ratio_ci.low);
    EXPECT_TRUE(row.significant); // unpaired, the rounds' drift hides it
    EXPECT_FALSE(welch(pg17, pg16)->p_value < 0.05);
    EXPECT_NE(row.verdict.find(", judged in pairs over 4 rounds"), std::string::npos)
        << row.verdict;
    // The means shown are the geometric means the ratio is of.
    EXPECT_TRUE(row.geometric);
    EXPECT_NEAR(row.typical_a, std::pow(100.0 * 200 * 150 * 120, 0.25), 1e-9);
    // Across two directories nothing pairs runs: Welch's test.
    const ResultsDir other = make_results({{"pg16", "95%", pg16}}, "/tmp/other");
    const auto two = compare(CompareSide{&other, {}, ""}, CompareSide{&r, sel("server=pg16"), ""},
                             server_ms_only());
    ASSERT_TRUE(two.has_value()) << two.error().message;
    EXPECT_EQ(two->rows[0].rounds, 0U);
}

// Compare opens with what differs between the sides besides the figures: here the servers'
// versions and the bench's arguments and duration (one side ran 10 s, the other 100
// transactions a client).
TEST(ReportCompareTest, WhatDiffersBetweenTheSidesIsSaidFirst) {
    const auto bench_dir = [](const std::string& dir, const std::string& version,
                              const std::vector<std::string>& arguments, double seconds) {
        ResultsDir r;
        r.dir = dir;
        r.name = "tpcb";
        Cell c;
        c.index = 0;
        c.label = "all";
        r.cells.push_back(c);
        r.plan.emplace();
        r.plan->pglab_version = "0.1.0";
        r.plan->pglab_commit = dir == "/tmp/a" ? "aaaaaaa" : "bbbbbbb";
        for (std::int64_t run = 0; run < 3; ++run) {
            const json steps = json::array({{{"index", 0},
                                             {"key", "tpcb"},
                                             {"type", "bench"},
                                             {"status", "ok"},
                                             {"arguments", arguments},
                                             {"bench",
                                              {{"version", "pglab.bench/1"},
                                               {"totals",
                                                {{"tps", 1000.0 + static_cast<double>(run)},
                                                 {"transactions", 1000.0 * seconds},
                                                 {"duration_s", seconds}}}}}}});
            store::FinishedRun f = testing::finished_run(run, 0, steps);
            f.record.server.seen.version = version;
            f.record.server.settings = {{"shared_buffers", "128MB"}};
            r.runs.push_back(std::move(f));
        }
        return r;
    };
    const ResultsDir a = bench_dir("/tmp/a", "16.4", {"--client=4", "--time=10"}, 10.0);
    const ResultsDir b = bench_dir("/tmp/b", "17.0", {"--client=4", "--transactions=100"}, 0.4);
    CompareOptions tps;
    tps.metrics = {"tps"};
    const auto c = compare(CompareSide{&a, {}, ""}, CompareSide{&b, {}, ""}, tps);
    ASSERT_TRUE(c.has_value()) << c.error().message;
    EXPECT_EQ(
        c->differences,
        (std::vector<std::string>{
            "pglab: 0.1.0 (aaaaaaa) in a; 0.1.0 (bbbbbbb) in b",
            "server version: 16.4 in a; 17.0 in b",
            "step tpcb arguments: --client=4 --time=10 in a; --client=4 --transactions=100 in b",
            "step tpcb ran for 10 s in a; 0.4 s in b (medians)"}));
    const std::string text = comparison_text(*c);
    EXPECT_EQ(text.find("What differs between a and b besides the figures:\n  - pglab: "), 0U)
        << text;
    EXPECT_EQ(json::parse(comparison_json(*c))["differences"].size(), 4U);
    // One side against itself: nothing differs, and it says so.
    const ResultsDir again = a;
    const auto same = compare(CompareSide{&a, {}, "a"}, CompareSide{&again, {}, "again"}, tps);
    ASSERT_TRUE(same.has_value()) << same.error().message;
    EXPECT_TRUE(same->differences.empty());
    EXPECT_EQ(comparison_text(*same).find("a and again ran alike besides what is compared"), 0U);
}

/// A significant row of a metric that is not a speed (WAL volume) with B/A = `ratio`.
ComparisonRow wal_row(double ratio, double low, double high) {
    ComparisonRow row;
    row.metric = MetricInfo{"probe:wal.bytes", "wal.bytes", "MB", Direction::lower_is_better, true};
    row.significant = true;
    WelchResult w;
    w.mean_a = 100.0;
    w.mean_b = 100.0 * ratio;
    w.ratio = ratio;
    w.p_value = 0.001;
    w.ratio_ci = Interval{low, high, true};
    row.welch_ba = w;
    return row;
}

TEST(ReportCompareTest, LowerAndHigherArePercentOfTheBaseline) {
    // B/A = 0.7: 30% lower than A (not 1/0.7 − 1 = 42.9%); the interval maps the same way.
    EXPECT_EQ(verdict_text(wal_row(0.7, 0.65, 0.75), "pg11", "pg12"),
              "pg12 is 30.0% lower than pg11 (95% CI 25.0–35.0%)");
    EXPECT_EQ(verdict_text(wal_row(1.3, 1.25, 1.35), "pg11", "pg12"),
              "pg12 is 30.0% higher than pg11 (95% CI 25.0–35.0%)");
    // From a factor of 1.5 on: A/B times lower, B/A times higher.
    EXPECT_EQ(verdict_text(wal_row(0.5, 0.4, 0.625), "pg11", "pg12"),
              "pg12 is 2.00x lower than pg11 (95% CI 1.60–2.50x)");
    EXPECT_EQ(verdict_text(wal_row(2.5, 2.0, 3.0), "pg11", "pg12"),
              "pg12 is 2.50x higher than pg11 (95% CI 2.00–3.00x)");
    // S4's GIN WAL, 167.85 → 92.78 MB: B/A = 0.553, 1.81x lower.
    EXPECT_EQ(verdict_text(wal_row(92.78 / 167.85, 0.55, 0.556), "pg11", "pg12").substr(0, 22),
              "pg12 is 1.81x lower th");
    // Down to 0 (heap fetches after VACUUM): all of it, never "infx".
    ComparisonRow zero = wal_row(0.0, 0.0, 0.0);
    zero.welch_ba->ratio_ci.bounded = false;
    EXPECT_EQ(verdict_text(zero, "before", "after"),
              "after is 100.0% lower than before (95% CI unbounded)");
}

TEST(ReportCompareTest, UnpairedCellsAndBadSelectors) {
    const ResultsDir r = make_results({{"pg16", "95%", k_pg16_95}, {"pg17", "5%", k_pg17_5}});
    const auto none = compare(CompareSide{&r, sel("server=pg16"), ""},
                              CompareSide{&r, sel("server=pg17"), ""}, server_ms_only());
    ASSERT_FALSE(none.has_value());
    EXPECT_NE(none.error().message.find("no cell of pg16 pairs with a cell of pg17"),
              std::string::npos);
    EXPECT_FALSE(experiment::parse_cell_selector("server").has_value());
    const auto every = experiment::parse_cell_selector("");
    ASSERT_TRUE(every.has_value());
    EXPECT_TRUE(every->empty());
    const auto two = experiment::parse_cell_selector("server=pg17;settings.work_mem=64MB");
    ASSERT_TRUE(two.has_value());
    EXPECT_EQ(two->items.size(), 2U);
    EXPECT_EQ(two->items[1].second, "64MB");
    EXPECT_EQ(two->text, "server=pg17;settings.work_mem=64MB");
}

TEST(ReportCompareTest, FixtureVacuumOfPg17AgainstPg16) {
    const auto r = load_results(std::filesystem::path(PGLAB_SOURCE_DIR)
                                / "tests/golden/report/results-fixture");
    ASSERT_TRUE(r.has_value());
    CompareOptions o;
    o.steps = {"vacuum"};
    const auto c = compare(CompareSide{&*r, sel("server=pg16"), ""},
                           CompareSide{&*r, sel("server=pg17"), ""}, o);
    ASSERT_TRUE(c.has_value());
    // Every pair of cells there has a side of two runs or fewer: too few for an interval, so
    // for a verdict.
    bool found = false;
    for (const auto& row : c->rows) {
        if (row.metric.id == "server_ms" && row.cell == "clients=20") {
            found = true;
            EXPECT_FALSE(row.welch_ba.has_value());
            EXPECT_EQ(row.verdict, "not enough runs to compare (needs 3 on each side)");
        }
    }
    EXPECT_TRUE(found);
}

} // namespace
} // namespace pglab::lab::report

namespace pglab::lab::report {
namespace {

ComparisonRow speed_row(const MetricInfo& metric, const std::vector<double>& a,
                        const std::vector<double>& b) {
    ComparisonRow row;
    row.metric = metric;
    row.welch_ba = welch(b, a);
    row.significant = true;
    return row;
}

// The percentage of a verdict is of A, the baseline, for speeds as for other metrics: a tps ratio
// of 0.700 is 30% slower (it used to read "42.9% slower", the baseline's advantage over B).
TEST(ReportCompareTest, SpeedPercentagesAreOfTheBaseline) {
    const MetricInfo tps{"tps", "tps", "", Direction::higher_is_better, true};
    const MetricInfo ms{"server_ms", "server time", "ms", Direction::lower_is_better, true};
    const std::vector<double> a{100.0, 100.5, 99.5};
    const std::vector<double> b70{70.0, 70.35, 69.65};
    const std::vector<double> b130{130.0, 130.65, 129.35};
    EXPECT_EQ(verdict_text(speed_row(tps, a, b70), "A", "B").substr(0, 17), "B is 30.0% slower");
    EXPECT_EQ(verdict_text(speed_row(tps, a, b130), "A", "B").substr(0, 17), "B is 30.0% faster");
    EXPECT_EQ(verdict_text(speed_row(ms, a, b70), "A", "B").substr(0, 17), "B is 30.0% faster");
    EXPECT_EQ(verdict_text(speed_row(ms, a, b130), "A", "B").substr(0, 17), "B is 30.0% slower");
    const std::vector<double> b50{50.0, 50.25, 49.75};
    EXPECT_EQ(verdict_text(speed_row(tps, a, b50), "A", "B").substr(0, 16), "B is 2.00x slowe");
    EXPECT_EQ(verdict_text(speed_row(ms, a, b50), "A", "B").substr(0, 16), "B is 2.00x faste");
}

} // namespace
} // namespace pglab::lab::report
