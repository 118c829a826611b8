// pg_format: C printf output, except PostgreSQL's spelling of NaN and infinities.
#include "stats/pg_format.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pglab::stats {
namespace {

TEST(PgFormatTest, FiniteValuesAsPrintf) {
    EXPECT_EQ(pg_format("tps = %f (x)", 1234.5678901234), "tps = 1234.567890 (x)");
    EXPECT_EQ(pg_format("%.3f ms", 0.0005), "0.001 ms");
    EXPECT_EQ(pg_format("%.1f%%", 12.25), "12.2%");
    EXPECT_EQ(pg_format("%lld/%d", 10LL, 20), "10/20");
    EXPECT_EQ(pg_format("%u", 4294967295U), "4294967295");
    EXPECT_EQ(pg_format("   %11.3f  %10lld  %s", 1.5, 3LL, "SELECT 1;"),
              "         1.500           3  SELECT 1;");
    EXPECT_EQ(pg_format("%s: %-5d|", "a", 7), "a: 7    |");
    EXPECT_EQ(pg_format("no conversions"), "no conversions");
}

TEST(PgFormatTest, NonFiniteAsPostgres) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(pg_format("0 (%.3f%%)", nan), "0 (NaN%)");
    EXPECT_EQ(pg_format("0 (%.3f%%)", -nan), "0 (NaN%)");
    EXPECT_EQ(pg_format("%f", inf), "Infinity");
    EXPECT_EQ(pg_format("%f", -inf), "-Infinity");
    EXPECT_EQ(pg_format("%+f", inf), "+Infinity");
    EXPECT_EQ(pg_format("[%11.3f]", nan), "[        NaN]");
    EXPECT_EQ(pg_format("[%-6.3f]", nan), "[NaN   ]");
    EXPECT_EQ(pg_format("[%011.3f]", nan), "[        NaN]");
    EXPECT_EQ(pg_format("%f", std::sqrt(-1.0)), "NaN");
}

TEST(PgFormatTest, Append) {
    std::string s = "a";
    pg_append(s, ", %lld failed", 2LL);
    EXPECT_EQ(s, "a, 2 failed");
}

} // namespace
} // namespace pglab::stats
