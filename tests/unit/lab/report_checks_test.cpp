// The report's functional checks section from a stored results fixture
// (tests/golden/report/checks-fixture: two runs, one whose checks all pass, one with two failing,
// and a standby in their servers)
// against the golden checks.md; and its place near the top of the whole report.
// PGLAB_UPDATE_GOLDEN=1 rewrites the golden file instead of comparing.
#include "lab/report/checks_section.hpp"
#include "lab/report/report.hpp"
#include "util/text_file.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "report_golden.hpp"

namespace pglab::lab::report {
namespace {

namespace fs = std::filesystem;

const fs::path k_checks_fixture = golden::k_dir / "checks-fixture";

TEST(ReportChecksTest, SectionMatchesGolden) {
    const auto results = load_results(k_checks_fixture);
    ASSERT_TRUE(results.has_value()) << results.error().message;
    Document doc;
    const CheckCounts counts = add_checks_section(*results, doc);
    EXPECT_EQ(counts.total, 8u);
    EXPECT_EQ(counts.failed, 2u);
    const std::string md = render_markdown(doc) + "\n";
    const fs::path golden = golden::k_dir / "checks.md";
    if (std::getenv("PGLAB_UPDATE_GOLDEN") != nullptr) { // NOLINT(concurrency-mt-unsafe)
        std::ofstream(golden, std::ios::binary) << md;
        GTEST_SKIP() << "rewrote " << golden;
    }
    const std::string expected = util::read_text_file(golden).value_or("");
    ASSERT_FALSE(expected.empty()) << golden << " is missing; run with PGLAB_UPDATE_GOLDEN=1";
    EXPECT_EQ(md, expected) << "the checks section of " << k_checks_fixture
                            << " changed; if on purpose, "
                            << "run the test with PGLAB_UPDATE_GOLDEN=1 and review the diff";
    const std::string html = render_html(doc);
    EXPECT_NE(html.find("<td><code>23P01</code></td>"), std::string::npos) << html;
    EXPECT_NE(html.find("<td>FAIL</td>"), std::string::npos) << html;
}

TEST(ReportChecksTest, ComeBeforeTheEnvironmentAndAreLeftOutWithoutChecks) {
    const auto results = load_results(k_checks_fixture);
    ASSERT_TRUE(results.has_value());
    ReportOptions options;
    options.output_dir = fs::temp_directory_path();
    const std::string md = render_markdown(build_report(*results, options).document);
    const auto checks = md.find("## Functional checks");
    ASSERT_NE(checks, std::string::npos);
    EXPECT_LT(checks, md.find("## Environment"));

    const auto plain = load_results(golden::k_dir / "results-fixture");
    ASSERT_TRUE(plain.has_value());
    Document doc;
    EXPECT_EQ(add_checks_section(*plain, doc).total, 0u);
    EXPECT_TRUE(doc.blocks.empty());
}

// A standby is not the cell's server: its version comes from the run's `servers` array.
TEST(ReportChecksTest, EveryServerOfTheRunsHasItsVersion) {
    const auto results = load_results(k_checks_fixture);
    ASSERT_TRUE(results.has_value());
    const Environment env = gather_environment(*results);
    bool replica = false;
    for (const auto& s : env.servers) {
        if (s.name == "replica") {
            replica = true;
            EXPECT_EQ(s.versions, std::set<std::string>{"15.18"});
        }
    }
    EXPECT_TRUE(replica);
}

} // namespace
} // namespace pglab::lab::report
