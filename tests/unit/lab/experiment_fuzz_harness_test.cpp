// tests/unit/lab: the experiment-file fuzz harness holds on the bundled experiments, on every
// prefix of one of them (truncated files), on some hostile inputs, and on every input the
// fuzzer (fuzz/spec_fuzz.cpp) once failed on, kept under tests/golden/lab/experiment-fuzz/.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../../../fuzz/spec_fuzz_harness.hpp"
#include "fuzz_regressions.hpp"

namespace pglab::fuzz {
namespace {

std::string read(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

TEST(SpecFuzzHarnessTest, BundledExperimentsAndTheirPrefixes) {
    for (const auto& entry : std::filesystem::directory_iterator(PGLAB_SOURCE_DIR "/experiments")) {
        if (entry.path().extension() != ".toml") {
            continue;
        }
        const std::string text = read(entry.path());
        EXPECT_EQ(check_spec_input(text), "") << entry.path();
        for (std::size_t n = 0; n < text.size(); n += 7) {
            ASSERT_EQ(check_spec_input(std::string_view(text).substr(0, n)), "")
                << entry.path() << " cut at " << n;
        }
    }
}

TEST(SpecFuzzHarnessTest, HostileInputs) {
    const std::string cases[] = {
        "",
        std::string(1, '\0'),
        "\xff\xfe[[steps]]",
        std::string(300, '[') + std::string(300, ']'),
        "a = " + std::string(300, '[') + std::string(300, ']'),
        "[matrix]\nfilter = \"" + std::string(1000, '(') + "\"\n[[steps]]\ntype = \"bench\"\n",
        "[matrix]\nclients = [1]\nfilter = \"!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
        "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!true\"\n"
        "[[steps]]\ntype = \"bench\"\n",
        "repeat = 10000\nwarmup = 1000\n[matrix]\nclients = [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,"
        "16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,"
        "45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,"
        "74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100]\n"
        "[[steps]]\ntype = \"bench\"\n",
        "[[steps]]\ntype = \"sql\"\nsql = \"${}${${${\"\n",
        "[[steps]]\ntype = \"sql\"\nsql = \"$${x}\"\n",
        "[servers.a]\nstandby_of = \"b\"\n[servers.b]\nstandby_of = \"c\"\n[servers.c]\nstandby_of "
        "= \"a\"\n[[steps]]\ntype = \"bench\"\n",
    };
    for (const auto& c : cases) {
        EXPECT_EQ(check_spec_input(c), "") << c.substr(0, 80);
    }
}

class SpecFuzzRegressionTest : public testing::TestWithParam<std::filesystem::path> {};

// The directory may hold no finding yet.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SpecFuzzRegressionTest);

TEST_P(SpecFuzzRegressionTest, PassesHarnessChecks) {
    EXPECT_EQ(check_spec_input(read(GetParam())), "") << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Files, SpecFuzzRegressionTest,
                         testing::ValuesIn(regression_files(PGLAB_SOURCE_DIR
                                                            "/tests/golden/lab/experiment-fuzz")),
                         regression_name);

} // namespace
} // namespace pglab::fuzz
