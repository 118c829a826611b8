// Deviations (issue 49): a step the file marks as not the paper's (`deviation = "why"`) is named
// in its own section of the report, with the cells its runs ran it in; a plan without one adds
// no section.
#include "lab/report/deviations.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "finished_runs.hpp"

namespace pglab::lab::report {
namespace {

using nlohmann::json;

/// A checkpoint step (ran, or skipped by its `when`) and a timed-sql "vacuum".
store::FinishedRun deviation_run(std::int64_t run, std::int64_t cell, bool checkpointed,
                                 bool warmup = false) {
    json checkpoint = {{"index", 0}, {"key", "0:checkpoint"}, {"type", "checkpoint"}};
    checkpoint["status"] = checkpointed ? "ok" : "skipped";
    if (!checkpointed) {
        checkpoint["skip_reason"] = "when";
    }
    const json vacuum = {{"index", 1},     {"key", "vacuum"},   {"type", "timed-sql"},
                         {"status", "ok"}, {"client_ms", 10.0}, {"server_ms", 9.0}};
    return testing::finished_run(run, cell, json::array({checkpoint, vacuum}), true, warmup);
}

/// Cells 0 and 1 (the paper's: no checkpoint) and 2 (pglab's: a checkpoint first).
ResultsDir deviation_cells(const std::string& deviation) {
    ResultsDir r;
    for (std::size_t i = 0; i < 3; ++i) {
        Cell c;
        c.index = i;
        c.label = "cell " + std::to_string(i);
        r.cells.push_back(c);
    }
    r.plan = store::PlanRecord{};
    r.plan->steps = {{0, "0:checkpoint", "", "checkpoint", false, false, deviation},
                     {1, "vacuum", "vacuum", "timed-sql", true, false, ""}};
    r.runs = {deviation_run(0, 0, false), deviation_run(1, 1, false), deviation_run(2, 2, true),
              deviation_run(3, 0, true, /*warmup=*/true)}; // a warm-up run is not a measured one
    return r;
}

std::string deviation_label(int64_t c) {
    return "checkpoint=" + std::string(c == 2 ? "true" : "false");
}

TEST(Deviations, TheStepSaysWhyAndInWhichCells) {
    const ResultsDir r = deviation_cells("the paper ran VACUUM right after the UPDATE");
    const std::vector<Deviation> d = collect_deviations(r);
    ASSERT_EQ(d.size(), 1U);
    EXPECT_EQ(d[0].step, "0:checkpoint");
    EXPECT_EQ(d[0].cells, (std::vector<int64_t>{2}));
    Document doc;
    add_deviations_section(d, r, deviation_label, doc);
    const std::string md = render_markdown(doc);
    EXPECT_NE(md.find("## Where this run departs from the paper"), std::string::npos) << md;
    EXPECT_NE(md.find("Step `0:checkpoint` (1 of 3 cells: checkpoint=true): the paper ran VACUUM "
                      "right after the UPDATE"),
              std::string::npos)
        << md;
}

TEST(Deviations, EveryCellOrNoneIsSaidSo) {
    ResultsDir r = deviation_cells("pglab's own warm-up");
    r.runs = {deviation_run(0, 0, true), deviation_run(1, 1, true), deviation_run(2, 2, true)};
    Document every;
    add_deviations_section(collect_deviations(r), r, deviation_label, every);
    EXPECT_NE(render_markdown(every).find("(every cell)"), std::string::npos);
    r.runs = {deviation_run(0, 0, false)};
    Document none;
    add_deviations_section(collect_deviations(r), r, deviation_label, none);
    EXPECT_NE(render_markdown(none).find("(no measured run ran it)"), std::string::npos);
}

TEST(Deviations, APlanWithoutAnyAddsNoSection) {
    const ResultsDir r = deviation_cells("");
    EXPECT_TRUE(collect_deviations(r).empty());
    Document doc;
    add_deviations_section(collect_deviations(r), r, deviation_label, doc);
    EXPECT_TRUE(doc.blocks.empty());
    ResultsDir old = r;
    old.plan.reset(); // results written before plans were recorded
    EXPECT_TRUE(collect_deviations(old).empty());
}

} // namespace
} // namespace pglab::lab::report
