// tests/unit/lab: the damaged-results fuzz harness holds for every kind of damage on every seed
// (sealed lines and unsealed ones, the changed line sealed again or not) at spread positions,
// and on every input the fuzzer (fuzz/results_fuzz.cpp) once failed on, kept under
// tests/golden/lab/results-fuzz/.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../../fuzz/results_fuzz_harness.hpp"
#include "fuzz_regressions.hpp"

namespace pglab::fuzz {
namespace {

/// The input that applies damage `kind` to seed `seed` with `flags` at `position`.
std::string input(unsigned seed, unsigned kind, unsigned flags, std::uint32_t position,
                  std::string_view payload = "") {
    std::string in = {static_cast<char>(seed), static_cast<char>(kind), static_cast<char>(flags)};
    for (int i = 0; i < 4; ++i) {
        in.push_back(static_cast<char>((position >> (8 * i)) & 0xffU));
    }
    return in + std::string(payload);
}

TEST(ResultsFuzzHarnessTest, EveryKindOfDamageOnEverySeedIsNamedOrChangesNothing) {
    // One position per seed, kind and flags, spread over the file.
    int damaged = 0;
    for (unsigned seed = 0; seed < results_fuzz::seeds().size(); ++seed) {
        for (unsigned kind = 0; kind < 8; ++kind) {
            for (unsigned flags = 0; flags < 4; ++flags) {
                const std::uint32_t position = 7919U * (kind + 1) + 104729U * flags + seed;
                const std::string in = input(seed, kind, flags, position, "\x05");
                EXPECT_EQ(check_results_input(in), "") << results_fuzz::damage(in).what << " (seed "
                                                       << seed << ", flags " << flags << ")";
                ++damaged;
            }
        }
    }
    EXPECT_EQ(damaged, static_cast<int>(results_fuzz::seeds().size()) * 8 * 4);
}

TEST(ResultsFuzzHarnessTest, TheDamageIsWhereTheInputSays) {
    // A number of line 1 turned into a string: the line differs there and nowhere else.
    const results_fuzz::Damaged d = results_fuzz::damage(input(0, 1, 0, 0));
    ASSERT_NE(d.text, d.original);
    EXPECT_EQ(results_fuzz::touched_lines(d.original, d.text), (std::set<std::size_t>{1}));
    // A line copied: the copy is a line more.
    const results_fuzz::Damaged copy = results_fuzz::damage(input(0, 4, 0, 1));
    EXPECT_EQ(results_fuzz::split_lines(copy.text).size(),
              results_fuzz::split_lines(copy.original).size() + 1);
}

class ResultsFuzzRegressionTest : public testing::TestWithParam<std::filesystem::path> {};

// The directory may hold no finding yet.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ResultsFuzzRegressionTest);

TEST_P(ResultsFuzzRegressionTest, PassesHarnessChecks) {
    EXPECT_EQ(check_results_input(results_fuzz::read_file(GetParam())), "") << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Files, ResultsFuzzRegressionTest,
                         testing::ValuesIn(regression_files(PGLAB_SOURCE_DIR
                                                            "/tests/golden/lab/results-fuzz")),
                         regression_name);

} // namespace
} // namespace pglab::fuzz
