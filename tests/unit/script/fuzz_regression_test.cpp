// Inputs the script fuzzer (fuzz/script_fuzz.cpp) once failed on, kept as files under
// tests/golden/script/fuzz/ (first byte: query mode, then the script). Each must now pass every
// check of the fuzz harness: no crash, no sanitizer report, expressions that print and parse
// back to the same tree, errors with a message.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../../../fuzz/script_fuzz_harness.hpp"

namespace pglab::script {
namespace {

std::vector<std::filesystem::path> regression_files() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(
             std::filesystem::path(PGLAB_SOURCE_DIR) / "tests/golden/script/fuzz")) {
        if (entry.is_regular_file()) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

class FuzzRegressionTest : public testing::TestWithParam<std::filesystem::path> {};

TEST_P(FuzzRegressionTest, PassesHarnessChecks) {
    std::ifstream in(GetParam(), std::ios::binary);
    ASSERT_TRUE(in) << GetParam();
    std::ostringstream data;
    data << in.rdbuf();
    EXPECT_EQ(fuzz::check_script_input(data.str()), "");
}

INSTANTIATE_TEST_SUITE_P(Files, FuzzRegressionTest, testing::ValuesIn(regression_files()),
                         [](const testing::TestParamInfo<std::filesystem::path>& p) {
                             std::string name = p.param.filename().string();
                             for (char& c : name) {
                                 if (std::isalnum(static_cast<unsigned char>(c)) == 0) {
                                     c = '_';
                                 }
                             }
                             return name;
                         });

TEST(FuzzRegressionTest, DeepNestingFailsLikeBison) {
    // pgbench 15: 9996 nested parentheses load, 9997 give "memory exhausted".
    ScriptSet ok;
    EXPECT_TRUE(ok.add(
        "f", "f", "\\set x " + std::string(9996, '(') + "1" + std::string(9996, ')') + "\n", 1));
    ScriptSet bad;
    Status st = bad.add(
        "f", "f", "\\set x " + std::string(9997, '(') + "1" + std::string(9997, ')') + "\n", 1);
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().message, "f:1: memory exhausted in command \"set\"");
}

} // namespace
} // namespace pglab::script
