// lab/store/plan_record: plan.json read into the typed record and written back. The stored
// plans (the report's fixtures) keep every field and value; a whole record comes back equal;
// what an older plan lacks stays absent; a field of the wrong type reads as absent.
#include "lab/store/plan_record.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using pglab::lab::store::plan_record_from_json;
using pglab::lab::store::PlanRecord;

json read_json(const fs::path& path) {
    std::ifstream in(path);
    return json::parse(in);
}

/// Whether `written` has every value of `stored`: the same scalars, arrays of the same length
/// item by item, objects with at least the stored keys (a newer writer adds keys, such as a
/// step's "once"). The path of the first difference goes to `where`.
bool keeps_everything(const json& stored, const json& written, std::string& where) {
    if (stored.is_object()) {
        for (const auto& [key, value] : stored.items()) {
            if (!written.is_object() || !written.contains(key)
                || !keeps_everything(value, written[key], where)) {
                where = "." + key + where;
                return false;
            }
        }
        return true;
    }
    if (stored.is_array()) {
        if (!written.is_array() || written.size() != stored.size()) {
            return false;
        }
        for (std::size_t i = 0; i < stored.size(); ++i) {
            if (!keeps_everything(stored[i], written[i], where)) {
                where = "[" + std::to_string(i) + "]" + where;
                return false;
            }
        }
        return true;
    }
    return stored == written;
}

class StoredPlan : public ::testing::TestWithParam<const char*> {};

TEST_P(StoredPlan, ReadsAndWritesBackEveryField) {
    const json stored =
        read_json(fs::path(PGLAB_SOURCE_DIR) / "tests/golden/report" / GetParam() / "plan.json");
    const auto record = plan_record_from_json(stored);
    ASSERT_TRUE(record) << record.error().message;
    const json written = to_json(*record);
    std::string where;
    EXPECT_TRUE(keeps_everything(stored, written, where)) << "at " << where;
    const auto again = plan_record_from_json(written);
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, *record);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, StoredPlan,
                         ::testing::Values("results-fixture", "checks-fixture"),
                         [](const auto& param_info) {
                             std::string name = param_info.param;
                             return name.substr(0, name.find('-'));
                         });

TEST(PlanRecord, AWholeRecordComesBackEqualAndWritesTheSameText) {
    PlanRecord p;
    p.experiment = "e";
    p.description = "d";
    p.file = "experiments/e.toml";
    p.pglab_version = "0.1.0";
    p.pglab_commit = "0123456789ab-modified";
    p.created_at = "2026-12-04T20:00:00+00:00";
    p.machine = pglab::util::MachineInfo{"cpu", 2, 1 << 30, "Linux 6.1 x86_64"};
    p.seed = 18446744073709551615ULL; // the largest seed
    p.seed_source = "command line";
    p.order = "interleaved";
    p.repeat = 3;
    p.repeat_max = 15;
    p.repeat_budget_ms = 0;
    p.warmup = 1;
    p.quick = true;
    p.on_error = "continue";
    p.variables = {"server", "clients"};
    p.servers = {{"pg16", "16", "", false, {"--data-checksums", "--wal-segsize=64"}, "", {}},
                 {"ext", "", "", true, {}, "", {}}};
    p.steps = {{0, "0:init", "", "init", false, true, ""},
               {1, "tps", "tps", "bench", true, false, ""},
               {2, "2:checkpoint", "", "checkpoint", false, false, "not in the paper"}};
    using pglab::lab::experiment::Scalar;
    p.cells = {
        {0,
         {{"server", Scalar{std::string("pg16"), {}}}, {"clients", Scalar{std::int64_t{1}, {}}}},
         "pg16",
         "server=pg16, clients=1"},
        {1, {{"clients", Scalar{2.5, {}}}}, "pg16", "server=pg16, clients=2.5"}};
    p.runs = {{0, 1, 1, true, 0}, {1, 0, 2, false, 3}};
    p.question = "Does 17 write less WAL?";
    pglab::lab::experiment::Claim ratio;
    ratio.text = "17 writes 30% less WAL";
    ratio.source = "the paper, table 2";
    ratio.step = "vacuum";
    ratio.metric = "probe:wal.bytes";
    ratio.kind = pglab::lab::experiment::ClaimKind::ratio;
    ratio.cell = *pglab::lab::experiment::parse_cell_selector("server=pg17; clients=8");
    ratio.baseline = *pglab::lab::experiment::parse_cell_selector("server=pg16 clients=8");
    ratio.paper = 0.7;
    ratio.at_least = 0.5;
    ratio.tolerance = 0.05;
    ratio.exact = true;
    ratio.paper_text = "0.70";
    ratio.explanation = "smaller table";
    pglab::lab::experiment::Claim shape;
    shape.text = "tps levels off";
    shape.kind = pglab::lab::experiment::ClaimKind::shape;
    shape.shape = pglab::lab::experiment::Shape::flat;
    shape.over = "clients";
    shape.from = "40";
    shape.min_step = 0.1;
    shape.untestable = "no 32-core machine";
    pglab::lab::experiment::Claim ratios = ratio;
    ratios.text = "the gain depends on the index";
    ratios.kind = pglab::lab::experiment::ClaimKind::ratio_of_ratios;
    ratios.paper_text.clear();
    ratios.own = true;
    ratios.divided_by_cell = *pglab::lab::experiment::parse_cell_selector("server=pg17 clients=1");
    ratios.divided_by_baseline =
        *pglab::lab::experiment::parse_cell_selector("server=pg16 clients=1");
    p.claims = {ratio, shape, ratios};
    const json written = to_json(p);
    const auto read = plan_record_from_json(written);
    ASSERT_TRUE(read);
    EXPECT_EQ(*read, p);
    EXPECT_EQ(to_json(*read).dump(), written.dump());
    EXPECT_EQ(written["machine"]["cores"], 2);
    EXPECT_EQ(written["claims"][0]["cell"]["items"][1]["value"], "8");
    EXPECT_TRUE(written["claims"][1]["paper"].is_null());
    EXPECT_EQ(written["steps"][2]["deviation"], "not in the paper");
    EXPECT_FALSE(written["steps"][1].contains("deviation")); // the paper's step: no field
    EXPECT_EQ(written["claims"][2]["kind"], "ratio_of_ratios");
    EXPECT_EQ(written["claims"][2]["own"], true);
    EXPECT_EQ(written["claims"][2]["divided_by_baseline"]["text"], "server=pg16 clients=1");
}

TEST(PlanRecord, AServerBuiltFromSourceKeepsItsTreeAndOptions) {
    PlanRecord p;
    p.servers = {{"master", "", "", false, {}, "/src/postgresql", {}},
                 {"patched", "", "", false, {}, "/src/patched", {"--enable-debug", "CFLAGS=-O2"}},
                 {"released", "17", "", false, {}, "", {}}};
    const json written = to_json(p);
    const auto read = plan_record_from_json(written);
    ASSERT_TRUE(read);
    EXPECT_EQ(read->servers, p.servers);
    EXPECT_EQ(written["servers"][1]["source"], "/src/patched");
    EXPECT_EQ(written["servers"][1]["configure"], json::array({"--enable-debug", "CFLAGS=-O2"}));
    EXPECT_EQ(written["servers"][0]["configure"], json::array()); // PostgreSQL's defaults
    // A server not built from source keeps the form plans had before.
    EXPECT_FALSE(written["servers"][2].contains("source"));
    EXPECT_FALSE(written["servers"][2].contains("configure"));
}

TEST(PlanRecord, AClaimOfAKindThisPglabDoesNotKnowIsKeptAndSaysSo) {
    const auto read = plan_record_from_json(json{
        {"claims", json::array({json{{"text", "a newer kind"}, {"kind", "ratio-of-ratios"}}})}});
    ASSERT_TRUE(read);
    ASSERT_TRUE(read->claims);
    ASSERT_EQ(read->claims->size(), 1U);
    EXPECT_EQ((*read->claims)[0].text, "a newer kind");
    EXPECT_NE((*read->claims)[0].untestable.find("ratio-of-ratios"), std::string::npos);
}

TEST(PlanRecord, WhatAnOlderPlanLacksStaysAbsent) {
    const auto read = plan_record_from_json(json{{"version", "pglab.plan/1"}, {"experiment", "e"}});
    ASSERT_TRUE(read);
    EXPECT_EQ(read->pglab_commit, "");
    EXPECT_FALSE(to_json(*read).contains("pglab_commit"));
    EXPECT_FALSE(read->machine);
    EXPECT_FALSE(read->seed);
    EXPECT_FALSE(read->repeat);
    EXPECT_FALSE(read->claims); // the report then reads the results' experiment.toml
    const json written = to_json(*read);
    EXPECT_FALSE(written.contains("machine"));
    EXPECT_FALSE(written.contains("seed"));
    EXPECT_FALSE(written.contains("repeat"));
    EXPECT_FALSE(written.contains("repeat_max"));
    EXPECT_FALSE(written.contains("claims"));
    EXPECT_FALSE(written.contains("question"));
}

TEST(PlanRecord, AFieldOfTheWrongTypeReadsAsAbsent) {
    const auto read = plan_record_from_json(json{{"seed", "7"},
                                                 {"cells", 3},
                                                 {"runs", json::array({1, json{{"run", 4}}})},
                                                 {"machine", json{{"cores", "two"}}}});
    ASSERT_TRUE(read);
    EXPECT_FALSE(read->seed);
    EXPECT_TRUE(read->cells.empty());
    ASSERT_EQ(read->runs.size(), 1u);
    EXPECT_EQ(read->runs[0].run, 4u);
    ASSERT_TRUE(read->machine);
    EXPECT_EQ(read->machine->cores, 0);
    EXPECT_FALSE(plan_record_from_json(json::array()));
}

} // namespace
