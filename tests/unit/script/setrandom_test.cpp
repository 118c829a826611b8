// pglab extension: pgbench 9.5's \setrandom, compiled to the \set random...() it stands for.
#include <gtest/gtest.h>

#include "script_test_util.hpp"

namespace pglab::script::test {
namespace {

TEST(SetrandomTest, DrawsTheSameValuesAsTheEquivalentSet) {
    const std::string legacy = "\\setrandom a 1 1000000\n\\set x debug(:a)\n"
                               "\\setrandom b 10 :a uniform\n\\set y debug(:b)\n"
                               "\\setrandom g 1 100 gaussian 2.5\n\\set z debug(:g)\n"
                               "\\setrandom e 1 100 exponential 3\n\\set w debug(:e)\n";
    const std::string modern = "\\set a random(1, 1000000)\n\\set x debug(:a)\n"
                               "\\set b random(10, :a)\n\\set y debug(:b)\n"
                               "\\set g random_gaussian(1, 100, 2.5)\n\\set z debug(:g)\n"
                               "\\set e random_exponential(1, 100, 3.0)\n\\set w debug(:e)\n";
    for (const uint64_t seed : {1u, 5432u, 99u}) {
        const std::string a = run_script(legacy, {}, seed);
        EXPECT_EQ(a, run_script(modern, {}, seed));
        EXPECT_NE(a.find("int "), std::string::npos) << a;
    }
}

TEST(SetrandomTest, StudyScriptWithThinkTimeLoads) {
    EXPECT_EQ(load_error("\\setrandom rs 1 1000000\n\\setrandom ru 1 1000000\n"
                         "\\setrandom s 80 100\nBEGIN;\n\\sleep :s ms\n"
                         "SELECT * FROM pgbench_accounts WHERE aid = :rs;\n\\sleep :s ms\n"
                         "UPDATE pgbench_accounts SET filler = 'xxxxxxxxxx' WHERE aid = :ru;\n"
                         "\\sleep :s ms\nCOMMIT;\n"),
              "");
}

TEST(SetrandomTest, RejectsMalformedCommandsAtLoadTime) {
    EXPECT_NE(load_error("\\setrandom x 1\n").find("missing argument"), std::string::npos);
    EXPECT_NE(load_error("\\setrandom x 1 10 gaussian\n").find("missing parameter"),
              std::string::npos);
    EXPECT_NE(load_error("\\setrandom x 1 10 poisson 3\n").find("invalid distribution"),
              std::string::npos);
    EXPECT_NE(load_error("\\setrandom x 1 10 uniform 3\n").find("too many arguments"),
              std::string::npos);
    EXPECT_NE(load_error("\\setrandom x one 10\n").find("invalid number"), std::string::npos);
}

TEST(SetrandomTest, RuntimeErrorsAreThoseOfTheRandomFunctions) {
    EXPECT_NE(run_script("\\setrandom x 10 1\n").find("empty range given to random"),
              std::string::npos);
    EXPECT_NE(run_script("\\setrandom x 1 10 gaussian 1.0\n").find("gaussian parameter"),
              std::string::npos);
}

} // namespace
} // namespace pglab::script::test
