// --random-seed / PGBENCH_RANDOM_SEED values as pgbench's sscanf reads them.
#include <gtest/gtest.h>

#include <cstdint>

#include "options/random_seed.hpp"

namespace pglab::options {
namespace {

TEST(RandomSeedTest, ParsesUnsignedIntegersLikeSscanf) {
    EXPECT_EQ(*parse_random_seed("5"), 5U);
    EXPECT_EQ(*parse_random_seed(" 5"), 5U);
    EXPECT_EQ(*parse_random_seed("18446744073709551615"), UINT64_MAX);
    EXPECT_EQ(*parse_random_seed("-1"), UINT64_MAX);
}

TEST(RandomSeedTest, RejectsTrailingCharactersAndWords) {
    for (const char* bad : {"one", "5 ", "5x", ""}) {
        auto r = parse_random_seed(bad);
        ASSERT_FALSE(r) << bad;
        EXPECT_EQ(r.error().message,
                  std::string("unrecognized random seed option \"") + bad + "\"");
        EXPECT_EQ(r.error().detail, "Expecting an unsigned integer, \"time\" or \"rand\".");
    }
}

TEST(RandomSeedTest, TimeAndRandGiveSeeds) {
    EXPECT_TRUE(parse_random_seed("time"));
    EXPECT_TRUE(parse_random_seed("rand"));
}

} // namespace
} // namespace pglab::options
