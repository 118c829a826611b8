// Reading results directories that are missing, partial, corrupt or from another version.
#include "lab/report/number_format.hpp"
#include "lab/report/report.hpp"
#include "lab/report/results.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace pglab::lab::report {
namespace {

namespace fs = std::filesystem;

class ReportResultsTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path()
                / ("pglab-report-test-" + std::to_string(::getpid()) + "-"
                   + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }

    void TearDown() override { fs::remove_all(m_dir); }

    void write(const std::string& name, const std::string& text) {
        std::ofstream(m_dir / name, std::ios::binary) << text;
    }

    static std::string line(int run, int cell, double ms,
                            const std::string& version = "pglab.run/1") {
        return R"({"version":")" + version + R"(","experiment":"t","run":)" + std::to_string(run)
               + R"(,"cell":)" + std::to_string(cell) + R"(,"values":{"params.x":)"
               + std::to_string(cell) + R"(},"label":"params.x=)" + std::to_string(cell)
               + R"(","repetition":1,"warmup":false,"round":0,"seed":1,"status":"ok","error":null,)"
                 R"("server":{"name":"default","version":"15.6","settings":{}},"steps":[)"
                 R"({"index":0,"key":"q","type":"timed-sql","server":"default","status":"ok",)"
                 R"("error":null,"elapsed_ms":1.0,"client_ms":)"
               + std::to_string(ms) + R"(,"server_ms":)" + std::to_string(ms - 0.5)
               + R"(,"probes":null}]})" + "\n";
    }

    fs::path m_dir;
};

TEST_F(ReportResultsTest, MissingDirectoryIsAClearError) {
    const auto r = load_results(m_dir / "nope");
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().message.find("does not exist"), std::string::npos);
    EXPECT_EQ(r.error().exit_code, 1);
    const auto empty = load_results(m_dir);
    ASSERT_FALSE(empty.has_value());
    EXPECT_NE(empty.error().message.find("neither plan.json nor results.jsonl"), std::string::npos);
}

TEST_F(ReportResultsTest, CorruptLineIsReportedWithItsNumberAndSkipped) {
    write("results.jsonl", line(0, 0, 10) + "{not json\n" + line(1, 1, 20) + line(2, 0, 12));
    const auto r = load_results(m_dir);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->runs.size(), 3U);
    bool plan_missing = false;
    bool line2 = false;
    for (const auto& p : r->problems) {
        plan_missing = plan_missing || p.find("plan.json is missing") != std::string::npos;
        line2 = line2 || p == "results.jsonl line 2: not valid JSON; the line is skipped";
    }
    EXPECT_TRUE(plan_missing);
    EXPECT_TRUE(line2);
    // Without plan.json, cells come from the runs.
    ASSERT_EQ(r->cells.size(), 2U);
    EXPECT_EQ(r->cells[0].label, "params.x=0");
    EXPECT_EQ(r->variables, std::vector<std::string>{"params.x"});
}

TEST_F(ReportResultsTest, TornLastLineDuplicatesAndOtherVersions) {
    std::string torn = line(3, 1, 5);
    torn.resize(40);
    write("results.jsonl", line(0, 0, 10) + line(0, 0, 11) + line(1, 1, 20, "pglab.run/0") + torn);
    const auto r = load_results(m_dir);
    ASSERT_TRUE(r.has_value());
    ASSERT_EQ(r->runs.size(), 2U);
    const std::string all = [&] {
        std::string s;
        for (const auto& p : r->problems) {
            s += p + "\n";
        }
        return s;
    }();
    EXPECT_NE(all.find("line 2: run 0 appears a second time"), std::string::npos) << all;
    EXPECT_NE(all.find("line 3: version \"pglab.run/0\""), std::string::npos) << all;
    EXPECT_NE(all.find("line 4: incomplete last line"), std::string::npos) << all;
}

TEST_F(ReportResultsTest, PartialPlanReportsWhatIsThereAndWhatIsMissing) {
    write("plan.json", R"({"version":"pglab.plan/1","experiment":"t","seed":7,"order":"random",
        "repeat":2,"warmup":0,"variables":["params.x"],
        "steps":[{"index":0,"key":"q","type":"timed-sql"}],
        "cells":[{"index":0,"label":"params.x=0","server":"default","values":{"params.x":0}},
                 {"index":1,"label":"params.x=1","server":"default","values":{"params.x":1}}],
        "runs":[{"run":0,"cell":0,"repetition":1},{"run":1,"cell":1,"repetition":1},
                {"run":2,"cell":0,"repetition":1},{"run":3,"cell":1,"repetition":1}]})");
    write("results.jsonl", line(0, 0, 10) + line(2, 0, 12));
    const auto r = load_results(m_dir);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->problems.empty());
    ReportOptions options;
    options.output_dir = m_dir;
    const Report report = build_report(*r, options);
    EXPECT_EQ(report.environment.missing_runs, (std::vector<int64_t>{1, 3}));
    const std::string md = render_markdown(report.document);
    EXPECT_NE(md.find("2 of 4 planned runs have no results"), std::string::npos) << md;
    EXPECT_NE(md.find("incomplete cells: params.x=1"), std::string::npos) << md;
    EXPECT_NE(md.find("| params.x=0 | 2 | 11.00 ± 1.414 |"), std::string::npos) << md;
    EXPECT_NE(md.find("| params.x=1 | 0 | no measured run |"), std::string::npos) << md;
}

TEST_F(ReportResultsTest, ClaimsComeFromThePlanAndNotFromTheExperimentFileBesideIt) {
    const std::string plan_start =
        R"({"version":"pglab.plan/1","experiment":"t","variables":["params.x"],
        "servers":[{"name":"default","initdb_options":["--data-checksums"]}],
        "steps":[{"index":0,"key":"q","type":"timed-sql"}],
        "cells":[{"index":0,"label":"params.x=0","server":"default","values":{"params.x":0}},
                 {"index":1,"label":"params.x=1","server":"default","values":{"params.x":1}}],
        "runs":[{"run":0,"cell":0,"repetition":1},{"run":1,"cell":1,"repetition":1}])";
    write("plan.json", plan_start + R"(, "question":"Is x=1 slower?",
        "claims":[{"text":"x=1 takes twice as long","step":"q","metric":"client_ms",
                   "kind":"ratio","paper":2.0,"tolerance":0.1,
                   "cell":{"text":"params.x=1","items":[{"name":"params.x","value":"1"}]},
                   "baseline":{"text":"params.x=0","items":[{"name":"params.x","value":"0"}]}}]})");
    write("results.jsonl", line(0, 0, 10) + line(1, 1, 20));
    // A copy that says otherwise (and does not parse): the plan is what the run was made for.
    write("experiment.toml", "question = \"something else\"\n[[claims]]\nnot valid\n");
    const auto r = load_results(m_dir);
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(plan_has_claims(*r));
    EXPECT_FALSE(r->experiment);
    ReportOptions options;
    options.output_dir = m_dir;
    const Report report = build_report(*r, options);
    EXPECT_EQ(report.question, "Is x=1 slower?");
    ASSERT_EQ(report.claims.size(), 1U);
    EXPECT_EQ(report.claims[0].claim.text, "x=1 takes twice as long");
    EXPECT_EQ(report.claims[0].judgement.cells, (std::vector<std::int64_t>{1, 0}));
    ASSERT_EQ(report.environment.servers.size(), 1U);
    EXPECT_EQ(report.environment.servers[0].initdb, "--data-checksums");

    // An older plan (no claims in it): the experiment file's copy is read, and its problem said.
    write("plan.json", plan_start + "}");
    const auto older = load_results(m_dir);
    ASSERT_TRUE(older.has_value());
    EXPECT_FALSE(plan_has_claims(*older));
    EXPECT_NE(older->experiment_problem.find("could not be read"), std::string::npos);
}

TEST_F(ReportResultsTest, AServerBuiltFromSourceIsNamedByItsTreeOptionsAndKey) {
    write("plan.json", R"({"version":"pglab.plan/1","experiment":"t","variables":["params.x"],
        "servers":[{"name":"default","source":"/src/patched","configure":["--enable-debug"]}],
        "steps":[{"index":0,"key":"q","type":"timed-sql"}],
        "cells":[{"index":0,"label":"params.x=0","server":"default","values":{"params.x":0}}],
        "runs":[{"run":0,"cell":0,"repetition":1}]})");
    std::string run = line(0, 0, 10);
    const std::string seen = R"("server":{"name":"default","version":"15.6",)";
    run.replace(run.find(seen), seen.size(),
                seen + R"("bin_dir":"/cache/builds/0123456789ab-1a2b3c4d-5e6f7a8b/bin",)");
    write("results.jsonl", run);
    const auto r = load_results(m_dir);
    ASSERT_TRUE(r.has_value());
    ReportOptions options;
    options.output_dir = m_dir;
    const Report report = build_report(*r, options);
    ASSERT_EQ(report.environment.servers.size(), 1U);
    EXPECT_EQ(report.environment.servers[0].source, "/src/patched");
    const std::string md = render_markdown(report.document);
    // The directory is the key (commit, uncommitted changes, options); the tree and the options
    // are said beside it.
    EXPECT_NE(md.find("/cache/builds/0123456789ab-1a2b3c4d-5e6f7a8b/bin, built from "
                      "`/src/patched` with `--enable-debug`"),
              std::string::npos)
        << md;
}

TEST(ReportFormatTest, NumbersKeepUsefulDigits) {
    EXPECT_EQ(format_number(0), "0");
    EXPECT_EQ(format_number(1228.07), "1228.1");
    EXPECT_EQ(format_number(16.456), "16.46");
    EXPECT_EQ(format_number(4.1664), "4.166");
    EXPECT_EQ(format_number(0.0123456), "0.0123");
    EXPECT_EQ(format_number(-253.54), "-253.5");
}

} // namespace
} // namespace pglab::lab::report
