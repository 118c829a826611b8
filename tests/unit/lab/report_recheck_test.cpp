// Stored results judged again (issue 48, stage 6): the report fixture stored as doc-tables
// stores a result (claims.csv, runs/plan.json, runs/results.jsonl.gz) is judged as stored; a
// verdict or a figure edited in claims.csv is named; a result without its runs says so.
#include "lab/report/recheck.hpp"
#include "lab/report/report.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace pglab::lab::report {
namespace {

namespace fs = std::filesystem;

const fs::path k_recheck_fixture =
    fs::path(PGLAB_SOURCE_DIR) / "tests/golden/report/results-fixture";

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

class Recheck : public ::testing::Test {
protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("pglab-recheck-test-" + std::to_string(::getpid()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir / "runs");
        auto results = load_results(k_recheck_fixture);
        ASSERT_TRUE(results.has_value());
        ReportOptions options;
        options.output_dir = m_dir;
        m_claims_csv = export_claims_csv(build_report(*results, options));
        std::ofstream(m_dir / "claims.csv") << m_claims_csv;
        fs::copy_file(k_recheck_fixture / "plan.json", m_dir / "runs/plan.json");
        fs::copy_file(k_recheck_fixture / "experiment.toml", m_dir / "runs/experiment.toml");
        const std::string lines = read(k_recheck_fixture / "results.jsonl");
        gzFile gz = gzopen((m_dir / "runs/results.jsonl.gz").c_str(), "wb");
        ASSERT_NE(gz, nullptr);
        ASSERT_EQ(gzwrite(gz, lines.data(), static_cast<unsigned>(lines.size())),
                  static_cast<int>(lines.size()));
        gzclose(gz);
    }

    void TearDown() override { fs::remove_all(m_dir); }

    void store_claims(const std::string& from, const std::string& to) {
        std::string edited = m_claims_csv;
        const auto at = edited.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        edited.replace(at, from.size(), to);
        std::ofstream(m_dir / "claims.csv") << edited;
    }

    fs::path m_dir;
    std::string m_claims_csv;
};

TEST_F(Recheck, AStoredResultIsJudgedAsStored) {
    const auto outcome = recheck_stored(m_dir);
    ASSERT_TRUE(outcome.has_value()) << outcome.error().message;
    EXPECT_TRUE(outcome->runs_kept);
    EXPECT_EQ(outcome->claims, 6U);
    EXPECT_TRUE(outcome->differences.empty()) << outcome->differences.front();
}

TEST_F(Recheck, WhatOfTheKeptRunsCouldNotBeReadIsNamedByItsFileAndLine) {
    // The fixture's own damage: a corrupt line and a torn last one.
    const auto outcome = recheck_stored(m_dir);
    ASSERT_TRUE(outcome.has_value()) << outcome.error().message;
    ASSERT_EQ(outcome->problems.size(), 2U);
    EXPECT_EQ(outcome->problems[0], "runs/results.jsonl.gz line 15: not valid JSON; the line is "
                                    "skipped");
    EXPECT_EQ(outcome->problems[1].rfind("runs/results.jsonl.gz line 24: incomplete last line", 0),
              0U)
        << outcome->problems[1];
}

// The kept runs read where they are kept: `pglab report` and `pglab compare` take a stored
// result's runs/ directory as a results directory.
TEST_F(Recheck, TheKeptRunsAreAResultsDirectory) {
    const auto kept = load_results(m_dir / "runs");
    ASSERT_TRUE(kept.has_value()) << kept.error().message;
    const auto original = load_results(k_recheck_fixture);
    ASSERT_TRUE(original.has_value());
    ASSERT_EQ(kept->runs.size(), original->runs.size());
    EXPECT_FALSE(kept->runs.empty());
    ASSERT_EQ(kept->problems.size(), 2U);
    EXPECT_EQ(kept->problems[0], "results.jsonl.gz line 15: not valid JSON; the line is skipped");
}

TEST_F(Recheck, AnEditedVerdictOrFigureIsNamed) {
    store_claims(",differs,its 95% interval", ",agrees,its 95% interval");
    auto outcome = recheck_stored(m_dir);
    ASSERT_TRUE(outcome.has_value());
    ASSERT_EQ(outcome->differences.size(), 1U);
    EXPECT_EQ(outcome->differences[0],
              "claim 1 (\"17 vacuums 5.7x faster than 16\"): verdict stored agrees, now differs");
    store_claims(",0.830241118737383,", ",0.9,");
    outcome = recheck_stored(m_dir);
    ASSERT_TRUE(outcome.has_value());
    ASSERT_EQ(outcome->differences.size(), 1U);
    EXPECT_NE(outcome->differences[0].find("claim 1 (\"17 vacuums 5.7x faster than 16\"): value "
                                           "stored 0.9, now 0.83"),
              std::string::npos)
        << outcome->differences[0];
}

TEST_F(Recheck, AResultStoredWithoutItsRunsCannotBeJudgedAgain) {
    fs::remove_all(m_dir / "runs");
    const auto outcome = recheck_stored(m_dir);
    ASSERT_TRUE(outcome.has_value());
    EXPECT_FALSE(outcome->runs_kept);
    fs::remove(m_dir / "claims.csv");
    EXPECT_FALSE(recheck_stored(m_dir).has_value()); // not a stored result
}

} // namespace
} // namespace pglab::lab::report
