// lab/store: the typed run record: statuses derived from step outcomes (a step that failed with
// no message still fails the run), and the JSON line read back as it was written.
#include "lab/store/run_record.hpp"

#include <gtest/gtest.h>

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
    r.steps[0].fields["exit_status"] = 0;
    r.steps[0].probes = {{"wal.bytes", 100}};
    r.steps[1].error = "invalid options: unrecognized option '--bogus'";
    r.steps[1].fields["exit_status"] = 1;
    r.failure = store::RunFailure{1, "1:bench", r.steps[1].error, false};
    r.recoveries.push_back({"default", "its postmaster was terminated by signal 9", "LOG: x"});
    const nlohmann::json line = store::to_json(r);
    EXPECT_EQ(line["status"], "failed");
    EXPECT_EQ(line["error"]["step"], 1);
    EXPECT_EQ(line["steps"][1]["status"], "failed");
    EXPECT_EQ(line["steps"][0]["exit_status"], 0);
    auto back = store::run_record_from_json(line);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(store::to_json(*back), line);
}

TEST(RunRecord, ALineWithAnUnknownStatusIsRefused) {
    auto line = store::to_json(record_with({StepStatus::ok}));
    line["status"] = "fine";
    auto back = store::run_record_from_json(line);
    ASSERT_FALSE(back);
    EXPECT_NE(back.error().message.find("\"fine\""), std::string::npos);
}

} // namespace
