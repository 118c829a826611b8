// Disturbances (issue 48): runs into whose measured step an autovacuum, other processes' CPU or
// steal fell are flagged from their probes, and each cell's spread is given with and without
// them; nothing is dropped from the figures.
#include "lab/report/disturbances.hpp"
#include "lab/report/metrics.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "finished_runs.hpp"

namespace pglab::lab::report {
namespace {

using nlohmann::json;

/// Run `run` of the one cell: a timed-sql step "q" of `ms` with `probes`.
store::FinishedRun run_with(std::int64_t run, double ms, json probes) {
    return testing::finished_run(run, 0,
                                 json::array({{{"index", 0},
                                               {"key", "q"},
                                               {"type", "timed-sql"},
                                               {"status", "ok"},
                                               {"client_ms", ms},
                                               {"server_ms", ms},
                                               {"probes", std::move(probes)}}}));
}

/// 10 s of a step on 2 cores: 20 s of the machine; the server took 8, pglab 1.
json quiet() {
    return {{"elapsed_s", 10.0},        {"host.cpu_s", 9.5},   {"server.cpu_s", 8.0},
            {"client.cpu_s", 1.0},      {"host.steal_s", 0.1}, {"db.autovacuum_count", 0},
            {"db.autoanalyze_count", 0}};
}

ResultsDir four_runs() {
    ResultsDir r;
    Cell c;
    c.index = 0;
    c.label = "all";
    r.cells.push_back(c);
    json busy = quiet();
    busy["host.cpu_s"] = 14.0; // others took 5 s: 25% of the machine
    json stolen = quiet();
    stolen["host.steal_s"] = 3.0; // 15%
    json vacuumed = quiet();
    vacuumed["db.autovacuum_count"] = 1;
    r.runs = {run_with(0, 100, quiet()), run_with(1, 150, busy), run_with(2, 101, stolen),
              run_with(3, 99, vacuumed), run_with(4, 100, quiet())};
    return r;
}

TEST(Disturbances, EachRunSaysWhatFellIntoIt) {
    const ResultsDir r = four_runs();
    const auto steps = collect_steps(r, 2);
    const auto d = collect_disturbances(r, steps, 2);
    ASSERT_EQ(d.size(), 1U);
    EXPECT_EQ(d[0].step, "q");
    ASSERT_EQ(d[0].runs.size(), 3U);
    EXPECT_EQ(d[0].runs[0].run, 1);
    EXPECT_EQ(d[0].runs[0].what,
              (std::vector<std::string>{"other processes took 5.0 s of CPU (25% of the machine)"}));
    EXPECT_EQ(d[0].runs[1].what, (std::vector<std::string>{"steal 15% of the machine"}));
    EXPECT_EQ(d[0].runs[2].what, (std::vector<std::string>{"1 autovacuum run"}));
    // Without the machine's cores, only what the server itself says is judged.
    const auto unknown = collect_disturbances(r, steps, 0);
    ASSERT_EQ(unknown.size(), 1U);
    EXPECT_EQ(unknown[0].runs.size(), 1U);
}

TEST(Disturbances, TheSectionGivesTheSpreadWithAndWithoutThem) {
    const ResultsDir r = four_runs();
    const auto steps = collect_steps(r, 2);
    Document doc;
    add_disturbances_section(
        collect_disturbances(r, steps, 2), steps, [](int64_t) { return std::string("all"); }, doc);
    std::vector<const Table*> tables;
    for (const Block& b : doc.blocks) {
        if (b.kind == BlockKind::table) {
            tables.push_back(&b.table);
        }
    }
    ASSERT_EQ(tables.size(), 2U);
    EXPECT_EQ(tables[0]->rows.size(), 3U);
    ASSERT_EQ(tables[1]->rows.size(), 1U);
    const auto& row = tables[1]->rows[0];
    EXPECT_EQ(row[1], "5");    // every run stays in the figures
    EXPECT_EQ(row[3], "2");    // runs 0 and 4 were undisturbed
    EXPECT_EQ(row[4], "0.0%"); // 100 and 100
    EXPECT_NE(row[2], "0.0%");
}

TEST(Disturbances, QuietRunsAddNoSection) {
    ResultsDir r;
    Cell c;
    c.index = 0;
    r.cells.push_back(c);
    r.runs = {run_with(0, 100, quiet()), run_with(1, 101, quiet())};
    const auto steps = collect_steps(r, 2);
    const auto d = collect_disturbances(r, steps, 2);
    EXPECT_TRUE(d.empty());
    Document doc;
    add_disturbances_section(
        d, steps, [](int64_t) { return std::string(); }, doc);
    EXPECT_TRUE(doc.blocks.empty());
}

} // namespace
} // namespace pglab::lab::report
