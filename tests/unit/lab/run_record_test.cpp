// lab/store: the typed run record: statuses derived from step outcomes (a step that failed with
// no message still fails the run), and the JSON line read back as it was written.
#include "lab/store/results_file.hpp"
#include "lab/store/run_record.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace store = pglab::lab::store;
using store::RunStatus;
using store::StepStatus;

store::RunRecord record_with(std::initializer_list<StepStatus> statuses) {
    store::RunRecord r;
    r.run = 3;
    r.cell = 1;
    std::size_t i = 0;
    for (const StepStatus s : statuses) {
        store::StepRecord step;
        step.index = i;
        step.key = std::to_string(i) + ":bench";
        step.type = "bench";
        step.server = "default";
        step.status = s;
        if (s == StepStatus::ok) {
            step.elapsed_ms = 12.5;
        }
        r.steps.push_back(step);
        ++i;
    }
    return r;
}

TEST(RunRecord, StatusComesFromTheSteps) {
    EXPECT_EQ(record_with({StepStatus::ok, StepStatus::skipped}).status(), RunStatus::ok);
    EXPECT_EQ(record_with({StepStatus::ok, StepStatus::failed, StepStatus::not_run}).status(),
              RunStatus::failed);
    EXPECT_EQ(record_with({StepStatus::timed_out, StepStatus::not_run}).status(),
              RunStatus::timed_out);
    auto server_failed = record_with({StepStatus::not_run});
    server_failed.failure = store::RunFailure{std::nullopt, "", "could not start", false};
    EXPECT_EQ(server_failed.status(), RunStatus::failed);
    auto between = record_with({StepStatus::ok, StepStatus::not_run});
    between.failure = store::RunFailure{std::nullopt, "", "run_timeout reached", true};
    EXPECT_EQ(between.status(), RunStatus::timed_out);
}

TEST(RunRecord, ALineReadsBackAsWritten) {
    auto r = record_with({StepStatus::ok, StepStatus::failed});
    r.steps[0].details = store::BenchStep{std::vector<std::string>{"--time=1"}, nullptr, 0};
    r.steps[0].probes = {{{"wal.bytes", 100, "bytes"}, {"db.blks_read", 7, ""}}};
    r.steps[0].probe_notes = {"wal.records, wal.fpi, wal.stat_bytes withheld: why"};
    r.steps[1].error = "invalid options: unrecognized option '--bogus'";
    r.steps[1].details = store::BenchStep{std::nullopt, nullptr, 1};
    r.failure = store::RunFailure{1, "1:bench", r.steps[1].error, false};
    r.recoveries.push_back({"default", "its postmaster was terminated by signal 9", "LOG: x"});
    r.settle = store::SettleRecord{12.5, 60000.0, false, "1 autovacuum worker", {"0:init"}};
    const nlohmann::json line = store::to_json(r);
    EXPECT_EQ(line["settle"]["busy"], "1 autovacuum worker");
    EXPECT_EQ(line["settle"]["settled"], false);
    EXPECT_EQ(line["status"], "failed");
    EXPECT_EQ(line["error"]["step"], 1);
    EXPECT_EQ(line["steps"][1]["status"], "failed");
    EXPECT_EQ(line["steps"][0]["exit_status"], 0);
    EXPECT_EQ(line["steps"][0]["probes"]["wal.bytes"], 100);
    EXPECT_EQ(line["steps"][0]["probe_units"], (nlohmann::json{{"wal.bytes", "bytes"}}));
    EXPECT_EQ(line["steps"][1]["probes"], nullptr);
    EXPECT_FALSE(line["steps"][1].contains("probe_units"));
    EXPECT_EQ(line["steps"][0]["probe_notes"],
              (nlohmann::json{"wal.records, wal.fpi, wal.stat_bytes withheld: why"}));
    EXPECT_FALSE(line["steps"][1].contains("probe_notes")); // none: no field
    auto back = store::run_record_from_json(line);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->steps[0].probe_notes, r.steps[0].probe_notes);
    EXPECT_EQ(store::to_json(*back), line);
}

TEST(RunRecord, ALineWithAnUnknownStatusIsRefused) {
    auto line = store::to_json(record_with({StepStatus::ok}));
    line["status"] = "fine";
    auto back = store::run_record_from_json(line);
    ASSERT_FALSE(back);
    EXPECT_NE(back.error().message.find("\"fine\""), std::string::npos);
}

TEST(RunRecord, ProbeUnitsAreRecordedElseImpliedByTheName) {
    auto line = store::to_json(record_with({StepStatus::ok}));
    line["steps"][0]["probes"] = {{"wal.bytes", 1e6}, {"io.op_bytes", 8192}, {"wait.IO", 1.5}};
    line["steps"][0]["probe_units"] = {{"io.op_bytes", "count"}};
    const auto back = store::run_record_from_json(line);
    ASSERT_TRUE(back) << back.error().message;
    const auto& probes = back->steps[0].probes.value();
    ASSERT_EQ(probes.size(), 3u);
    EXPECT_EQ(probes[0].name, "io.op_bytes"); // by name, as the line keeps them
    EXPECT_EQ(store::probe_unit(probes[0]), "count");
    EXPECT_EQ(store::probe_unit(probes[1]), "sessions");
    EXPECT_EQ(store::probe_unit(probes[2]), "bytes");
    EXPECT_EQ(probes[2].unit, ""); // not recorded: written back without a unit
    EXPECT_EQ(store::to_json(*back), line);
}

TEST(RunRecord, AFieldOfAnotherTypeRefusesTheLineAndNamesIt) {
    auto line = store::to_json(record_with({StepStatus::ok}));
    line["repetition"] = "first";
    auto back = store::run_record_from_json(line);
    ASSERT_FALSE(back);
    EXPECT_EQ(back.error().message, "\"repetition\" is a string, not an unsigned integer");

    line = store::to_json(record_with({StepStatus::ok}));
    line["steps"][0]["elapsed_ms"] = "12 ms";
    back = store::run_record_from_json(line);
    ASSERT_FALSE(back);
    EXPECT_EQ(back.error().message, "steps[0]: \"elapsed_ms\" is a string, not a number or null");
}

// Each kind's record is what the step object holds of its own; a field of the kind with another
// type reads as absent, and a kind this pglab does not know keeps its fields as they are.
TEST(RunRecord, AStepsOwnFieldsAreItsKindsRecord) {
    auto line = store::to_json(record_with({StepStatus::ok, StepStatus::ok, StepStatus::ok}));
    line["steps"][0]["type"] = "shell";
    line["steps"][0]["command"] = "echo hi";
    line["steps"][0]["exit_status"] = nullptr; // killed
    line["steps"][1]["type"] = "timed-sql";
    line["steps"][1].update({{"session", "default"},
                             {"statement", "SELECT 1"},
                             {"client_ms", 0.5},
                             {"server_ms", "fast"},
                             {"rows", 1}});
    line["steps"][2]["type"] = "teleport";
    line["steps"][2]["destination"] = {{"x", 1}};
    const auto back = store::run_record_from_json(line);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->steps[0].details, (store::StepDetails{store::ShellStep{"echo hi", {}}}));
    const auto* timed = back->steps[1].as<store::TimedSqlStep>();
    ASSERT_NE(timed, nullptr);
    EXPECT_EQ(*timed, (store::TimedSqlStep{"default", "SELECT 1", 0.5, std::nullopt, 1}));
    const auto* other = back->steps[2].as<store::OtherStep>();
    ASSERT_NE(other, nullptr);
    EXPECT_EQ(other->fields, (nlohmann::json{{"destination", {{"x", 1}}}}));
    const nlohmann::json again = store::to_json(*back);
    EXPECT_EQ(again["steps"][0], line["steps"][0]);
    EXPECT_EQ(again["steps"][2], line["steps"][2]);
    EXPECT_EQ(again["steps"][1]["server_ms"], nullptr);
}

TEST(RunRecord, AKindsFieldNeverOverwritesACommonOne) {
    store::StepRecord step;
    step.type = "teleport";
    step.status = StepStatus::failed;
    step.error = "lost";
    step.details = store::OtherStep{{{"status", "ok"}, {"error", nullptr}, {"where", "mars"}}};
    const nlohmann::json j = store::to_json(step);
    EXPECT_EQ(j["status"], "failed");
    EXPECT_EQ(j["error"], "lost");
    EXPECT_EQ(j["where"], "mars");
}

// Stored results.jsonl files, under tests/golden: the report's fixtures (written by hand: their
// probes are integers where pglab writes 0.0, so they read back as equal values) and step-kinds
// (written by `pglab run experiment.toml` of its directory: every step kind, ok, failed, timed
// out, skipped and not run; it reads back as the same text).
struct StoredFile {
    const char* dir;
    bool written_by_pglab;
};

class StoredLines : public ::testing::TestWithParam<StoredFile> {};

TEST_P(StoredLines, EveryFinishedRunReadsAndWritesBackEqual) {
    const std::filesystem::path path =
        std::filesystem::path(PGLAB_SOURCE_DIR) / "tests/golden" / GetParam().dir / "results.jsonl";
    const auto file = store::read_results(path);
    ASSERT_TRUE(file) << file.error().message;
    ASSERT_FALSE(file->runs.empty());
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    for (const store::FinishedRun& run : file->runs) {
        SCOPED_TRACE("line " + std::to_string(run.line));
        ASSERT_LE(run.line, lines.size());
        const nlohmann::json stored = nlohmann::json::parse(lines[run.line - 1]);
        const nlohmann::json back = store::to_json(run.record);
        EXPECT_EQ(back, stored);
        if (GetParam().written_by_pglab) {
            EXPECT_EQ(back.dump(), stored.dump()); // 1 and 1.0 are equal values, not equal text
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, StoredLines,
                         ::testing::Values(StoredFile{"report/results-fixture", false},
                                           StoredFile{"report/checks-fixture", false},
                                           StoredFile{"store/step-kinds", true}),
                         [](const auto& param_info) {
                             std::string name = param_info.param.dir;
                             std::replace_if(
                                 name.begin(), name.end(),
                                 [](char c) { return c == '/' || c == '-'; }, '_');
                             return name;
                         });

} // namespace
