// Disturbances (issue 48): runs into whose measured step an autovacuum, other processes' CPU or
// steal fell are flagged from their probes, and each cell's spread is given with and without
// them; nothing is dropped from the figures. A run whose setup (a `once` step) ran in it with no
// settle between is flagged too, and the report's noise warning names it (issue 62, stage 3).
#include "lab/report/disturbances.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
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
    const auto d = collect_disturbances(r, steps, {}, 2);
    ASSERT_EQ(d.size(), 1U);
    EXPECT_EQ(d[0].step, "q");
    ASSERT_EQ(d[0].runs.size(), 3U);
    EXPECT_EQ(d[0].runs[0].run, 1);
    EXPECT_EQ(d[0].runs[0].what,
              (std::vector<std::string>{"other processes took 5.0 s of CPU (25% of the machine)"}));
    EXPECT_EQ(d[0].runs[1].what, (std::vector<std::string>{"steal 15% of the machine"}));
    EXPECT_EQ(d[0].runs[2].what, (std::vector<std::string>{"1 autovacuum run"}));
    // Without the machine's cores, only what the server itself says is judged.
    const auto unknown = collect_disturbances(r, steps, {}, 0);
    ASSERT_EQ(unknown.size(), 1U);
    EXPECT_EQ(unknown[0].runs.size(), 1U);
}

TEST(Disturbances, TheSectionGivesTheSpreadWithAndWithoutThem) {
    const ResultsDir r = four_runs();
    const auto steps = collect_steps(r, 2);
    Document doc;
    add_disturbances_section(
        collect_disturbances(r, steps, {}, 2), steps, [](int64_t) { return std::string("all"); },
        doc);
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
    const auto d = collect_disturbances(r, steps, {}, 2);
    EXPECT_TRUE(d.empty());
    Document doc;
    add_disturbances_section(
        d, steps, [](int64_t) { return std::string(); }, doc);
    EXPECT_TRUE(doc.blocks.empty());
}

/// Run `run` of the one cell: a once init (ran, or skipped as done) and a timed-sql step "q" of
/// `ms`; `settle`: the run's settle object, null for none.
store::FinishedRun run_after_setup(std::int64_t run, double ms, bool init_ran, json settle) {
    json init = {{"index", 0}, {"key", "0:init"}, {"type", "init"}};
    if (init_ran) {
        init["status"] = "ok";
        init["elapsed_ms"] = 500.0;
    } else {
        init["status"] = "skipped";
        init["skip_reason"] = "once";
    }
    json doc = {{"version", "pglab.run/1"},
                {"run", static_cast<std::uint64_t>(run)},
                {"cell", 0},
                {"label", ""},
                {"warmup", false},
                {"status", "ok"},
                {"steps", json::array({init,
                                       {{"index", 1},
                                        {"key", "q"},
                                        {"type", "timed-sql"},
                                        {"status", "ok"},
                                        {"client_ms", ms},
                                        {"server_ms", ms}}})}};
    if (!settle.is_null()) {
        doc["settle"] = std::move(settle);
    }
    auto record = store::run_record_from_json(doc);
    EXPECT_TRUE(record.has_value());
    return {0, std::move(*record)};
}

json settled(bool after_init) {
    json s = {{"checkpoint_ms", 3.0}, {"waited_ms", 0.0}, {"settled", true}, {"busy", nullptr}};
    if (after_init) {
        s["after"] = json::array({"0:init"});
    }
    return s;
}

ResultsDir setup_runs(json first_settle) {
    ResultsDir r;
    r.name = "setup";
    Cell c;
    c.index = 0;
    c.label = "all";
    r.cells.push_back(c);
    r.plan.emplace();
    r.plan->steps = {{0, "0:init", "", "init", false, true, ""},
                     {1, "q", "", "timed-sql", true, false, ""}};
    // Run 0 ran the init; runs 1-4 skipped it as done.
    r.runs = {run_after_setup(0, 30, true, std::move(first_settle)),
              run_after_setup(1, 100, false, settled(false)),
              run_after_setup(2, 101, false, settled(false)),
              run_after_setup(3, 99, false, settled(false)),
              run_after_setup(4, 100, false, settled(false))};
    return r;
}

TEST(Disturbances, ASetupStepRunUnsettledBeforeAMeasuredOneIsNamed) {
    const std::set<std::string> once = {"0:init"};
    // Settled before the init (older pglab, or the init after a measured step): run 0 follows it.
    ResultsDir r = setup_runs(settled(false));
    auto steps = collect_steps(r, 2);
    auto d = collect_disturbances(r, steps, once, 2);
    ASSERT_EQ(d.size(), 1U);
    EXPECT_EQ(d[0].step, "q"); // the init's own figures are the run's
    ASSERT_EQ(d[0].runs.size(), 1U);
    EXPECT_EQ(d[0].runs[0].run, 0);
    EXPECT_EQ(d[0].runs[0].after_setup, (std::vector<std::string>{"0:init"}));
    EXPECT_EQ(d[0].runs[0].causes(),
              (std::vector<std::string>{"follows setup step 0:init with no settle between"}));
    EXPECT_EQ(
        cell_disturbances(d[0], 0),
        (std::vector<std::string>{"run 0: follows setup step 0:init with no settle between"}));
    // settle = false: nothing settled after the init either.
    r = setup_runs(nullptr);
    steps = collect_steps(r, 2);
    EXPECT_EQ(collect_disturbances(r, steps, once, 2).size(), 1U);
    // The run settled after its init: nothing to say.
    r = setup_runs(settled(true));
    steps = collect_steps(r, 2);
    EXPECT_TRUE(collect_disturbances(r, steps, once, 2).empty());
}

TEST(Disturbances, TheNoiseWarningNamesTheSetupItFollows) {
    ReportOptions o;
    o.output_dir = std::filesystem::temp_directory_path();
    const auto report = build_report(setup_runs(settled(false)), o);
    std::string noise;
    std::string setup;
    for (const std::string& w : report.warnings) {
        if (w.find("high variation") != std::string::npos) {
            noise = w;
        }
        if (w.find("follow setup step") != std::string::npos) {
            setup = w;
        }
    }
    EXPECT_NE(noise.find("run 0: follows setup step 0:init with no settle between"),
              std::string::npos)
        << noise;
    EXPECT_EQ(noise.find("look for the source of the noise"), std::string::npos) << noise;
    EXPECT_NE(setup.find("Step q: run(s) 0 follow setup step(s) 0:init"), std::string::npos)
        << setup;
    // Settled after its init, the same spread is not explained.
    const auto settled_report = build_report(setup_runs(settled(true)), o);
    bool unexplained = false;
    for (const std::string& w : settled_report.warnings) {
        unexplained =
            unexplained || w.find("look for the source of the noise") != std::string::npos;
        EXPECT_EQ(w.find("follow"), std::string::npos) << w;
    }
    EXPECT_TRUE(unexplained);
}

} // namespace
} // namespace pglab::lab::report
