// option_parse_int / atoi / atof semantics of pgbench's numeric options.
#include <gtest/gtest.h>

#include <climits>

#include "options/int_option.hpp"

namespace pglab::options {
namespace {

TEST(IntOptionTest, AcceptsPlainAndPaddedNumbers) {
    EXPECT_EQ(*parse_int_option("5", "-c/--clients", 1, INT_MAX), 5);
    EXPECT_EQ(*parse_int_option(" 5", "-c/--clients", 1, INT_MAX), 5);
    EXPECT_EQ(*parse_int_option("5 \t", "-c/--clients", 1, INT_MAX), 5);
    EXPECT_EQ(*parse_int_option("+7", "-c/--clients", 1, INT_MAX), 7);
    EXPECT_EQ(*parse_int_option("2147483647", "-c/--clients", 1, INT_MAX), INT_MAX);
    EXPECT_EQ(*parse_int_option("0", "--partitions", 0, INT_MAX), 0);
}

TEST(IntOptionTest, RejectsGarbageWithInvalidValue) {
    for (const char* bad : {"three", "5x", "5 x", "0x10", "1.5"}) {
        auto r = parse_int_option(bad, "-c/--clients", 1, INT_MAX);
        ASSERT_FALSE(r) << bad;
        EXPECT_EQ(r.error().message,
                  std::string("invalid value \"") + bad + "\" for option -c/--clients");
    }
}

TEST(IntOptionTest, RangeErrorsNameTheOption) {
    for (const char* bad : {"0", "-1", "", "2147483648", "99999999999999999999"}) {
        auto r = parse_int_option(bad, "-c/--clients", 1, INT_MAX);
        ASSERT_FALSE(r) << bad;
        EXPECT_EQ(r.error().message, "-c/--clients must be in range 1..2147483647") << bad;
    }
    auto f = parse_int_option("1", "-F/--fillfactor", 10, 100);
    ASSERT_FALSE(f);
    EXPECT_EQ(f.error().message, "-F/--fillfactor must be in range 10..100");
}

TEST(IntOptionTest, AtoiAndAtofFollowTheCLibrary) {
    EXPECT_EQ(c_atoi("-10"), -10);
    EXPECT_EQ(c_atoi("abc"), 0);
    EXPECT_EQ(c_atoi("12abc"), 12);
    EXPECT_DOUBLE_EQ(c_atof("0.0"), 0.0);
    EXPECT_DOUBLE_EQ(c_atof("1.5ms"), 1.5);
    EXPECT_DOUBLE_EQ(c_atof("x"), 0.0);
}

} // namespace
} // namespace pglab::options
