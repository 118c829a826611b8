// Run-time (exit 2) evaluation results and errors, with the text pgbench 15 prints (captured with
// the TAP test's -D options).
#include <gtest/gtest.h>

#include "script_test_util.hpp"

namespace pglab::script {
namespace {

const std::vector<std::pair<std::string, std::string>> k_defines = {
    {"foo", "bla"},
    {"null", "null"},
    {"true", "true"},
    {"one", "1"},
    {"zero", "0.0"},
    {"badtrue", "trueXXX"},
    {"maxint", "9223372036854775807"},
    {"minint", "-9223372036854775808"},
    {"big", "99999999999999999999"},
    {"plus", "+"},
    {"sp", " 12"},
    {"hex", "0x10"},
    {"inf", "inf"},
    {"t3", "TRU"},
    {"o", "o"},
    {"on", "ON"},
    {"nan", "NaN"}};

std::string run(const std::string& expr) {
    std::string out = test::run_script("\\set i " + expr + "\n", k_defines);
    const size_t p = out.find("): ");
    return p == std::string::npos ? out : out.substr(p + 3);
}

struct RuntimeErrorCase {
    const char* expr;
    const char* expected; ///< "ERROR: <message>\n" or the debug payload
};

const RuntimeErrorCase k_runtime_error_cases[] = {
    {"1/0", "ERROR: division by zero\n"},
    {":nosuch", "ERROR: undefined variable \"nosuch\"\n"},
    {"least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)",
     "ERROR: too many function arguments, maximum is 16\n"},
    {"random(5,3)", "ERROR: empty range given to random\n"},
    {"random(:minint, :maxint)", "ERROR: random range is too large\n"},
    {"random_gaussian(0, 10, 1.0)",
     "ERROR: gaussian parameter must be at least 2.000000 (not 1.000000)\n"},
    {"random_exponential(0, 10, 0.0)",
     "ERROR: exponential parameter must be greater than zero (not 0.000000)\n"},
    {"random_zipfian(0, 10, 1)",
     "ERROR: zipfian parameter must be in range [1.001, 1000] (not 1.000000)\n"},
    {"random_zipfian(0, 10, 1000000)",
     "ERROR: zipfian parameter must be in range [1.001, 1000] (not 1000000.000000)\n"},
    {":foo + 1", "ERROR: malformed variable \"foo\" value: \"bla\"\n"},
    {"NOT 0.0", "ERROR: cannot coerce double to boolean\n"},
    {"TRUE + 2", "ERROR: cannot coerce boolean to int\n"},
    {"ln(TRUE)", "ERROR: cannot coerce boolean to double\n"},
    {"random(FALSE, TRUE)", "ERROR: cannot coerce boolean to int\n"},
    {"int(1E32)", "ERROR: double to int overflow for 100000000000000005366162204393472.000000\n"},
    {"(1<<62) + (1<<62)", "ERROR: bigint add out of range\n"},
    {"0 - (1<<62) - (1<<62) - (1<<62)", "ERROR: bigint sub out of range\n"},
    {"2 * (1<<62)", "ERROR: bigint mul out of range\n"},
    {":minint / -1", "ERROR: bigint div out of range\n"},
    {":badtrue or true", "ERROR: malformed variable \"badtrue\" value: \"trueXXX\"\n"},
    {"permute(0, 0)", "ERROR: permute size parameter must be greater than zero\n"},
    {":big + 1", "ERROR: value \"99999999999999999999\" is out of range for type bigint\n"},
    {":plus + 1", "ERROR: invalid input syntax for type bigint: \"+\"\n"},
    {"int(0.0/0)", "ERROR: double to int overflow for NaN\n"},
    {"5 or 0", "ERROR: cannot coerce int to boolean\n"},
    {":o", "ERROR: malformed variable \"o\" value: \"o\"\n"},
    {"debug(abs(true))", "double 4.94065645841247e-324\n"},
    {"debug(abs(:minint))", "int -9223372036854775808\n"},
    {"debug(1 << 64)", "int 1\n"},
    {"debug(-1 >> 65)", "int -1\n"},
    {":null + 1", ""},
    {"debug(:zero)", "double 0\n"},
    {"debug(:sp)", "int 12\n"},
    {"debug(:hex)", "double 16\n"},
    {"debug(:inf)", "double Infinity\n"},
    {"debug(:t3)", "boolean true\n"},
    {"debug(:on)", "boolean true\n"},
    {"debug(:nan)", "double NaN\n"},
    {"debug(1 is true)", "boolean false\n"},
    {"debug(least(1, 2.5, :null))", "null\n"},
    {"debug(:minint % -1)", "int 0\n"},
    {"debug(-7 % 3)", "int -1\n"},
    {"debug(int(2.5) + int(3.5)*10)", "int 42\n"},
    {"debug(1.5e308 * 10)", "double Infinity\n"},
    {"debug(0.1 + 0.2)", "double 0.3\n"},
    {"debug(-0.0)", "double 0\n"},
    {"debug(~1 + 2)", "int -4\n"},
    {"debug(false and 1/0)", "boolean false\n"},
    {"debug(true or 1/0)", "boolean true\n"},
    {"debug(null and 1/0)", "null\n"},
    {"debug(true and null)", "null\n"},
    {"debug(-9223372036854775808 - 0)", "int -9223372036854775808\n"},
    {"debug(least(,3))", "int 3\n"},
};

TEST(RuntimeTest, MatchPgbench) {
    for (const RuntimeErrorCase& c : k_runtime_error_cases) {
        EXPECT_EQ(run(c.expr), c.expected) << c.expr;
    }
}

TEST(RuntimeTest, EvaluationDoesNotTouchUnevaluatedBranches) {
    EXPECT_EQ(test::run_script("\\set zy 0\n"
                               "\\set a debug(case when :zy = 0 then -1 else (1 / :zy) end)\n"),
              "debug(script=0,command=2): int -1\n");
}

} // namespace
} // namespace pglab::script
