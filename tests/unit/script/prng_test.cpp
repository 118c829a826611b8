// The PRNG and distributions reproduce pgbench 15's numbers for --random-seed=5432.
#include "script/prng.hpp"
#include "script/random.hpp"

#include <gtest/gtest.h>

#include "script_test_util.hpp"

namespace pglab::script {
namespace {

TEST(PrngTest, SplitmixSeedingIsDeterministic) {
    Prng a;
    Prng b;
    a.seed(42);
    b.seed(42);
    for (int i = 0; i < 10; ++i) {
        EXPECT_EQ(a.next_u64(), b.next_u64());
    }
}

TEST(PrngTest, RangeStaysInBounds) {
    Prng p;
    p.seed(1);
    for (int i = 0; i < 1000; ++i) {
        const uint64_t v = p.uint64_range(5, 9);
        EXPECT_GE(v, 5U);
        EXPECT_LE(v, 9U);
    }
    EXPECT_EQ(p.uint64_range(7, 7), 7U);
    EXPECT_EQ(p.uint64_range(9, 3), 9U);
}

TEST(PrngTest, DoubleInUnitInterval) {
    Prng p;
    p.seed(2);
    for (int i = 0; i < 1000; ++i) {
        const double d = p.next_double();
        EXPECT_GE(d, 0.0);
        EXPECT_LT(d, 1.0);
    }
}

TEST(PrngTest, DistributionsMatchPgbenchWithSeed5432) {
    test::Seeds s(5432);
    EXPECT_EQ(random_uniform(s.client, 10, 19), 17);
    EXPECT_EQ(random_exponential(s.client, 100, 199, 10.0), 104);
    EXPECT_EQ(random_gaussian(s.client, 1000, 1999, 10.0), 1498);
    EXPECT_EQ(random_zipfian(s.client, 1, 9, 1.3), 3);
}

TEST(HashTest, Vectors) {
    EXPECT_EQ(hash_murmur2(10, 5432), -5817877081768721676LL);
    EXPECT_EQ(hash_fnv1a(10, 5432), -7793829335365542153LL);
}

TEST(PermuteTest, IsABijection) {
    for (int64_t size : {1, 2, 3, 7, 10, 100, 1000}) {
        std::vector<bool> seen(static_cast<size_t>(size));
        for (int64_t i = 0; i < size; ++i) {
            const int64_t v = permute(i, size, 5432);
            ASSERT_GE(v, 0);
            ASSERT_LT(v, size);
            EXPECT_FALSE(seen[static_cast<size_t>(v)]);
            seen[static_cast<size_t>(v)] = true;
        }
    }
    EXPECT_EQ(permute(5, 1, 1), 0);
    // i is taken modulo size as an unsigned value
    EXPECT_EQ(permute(-1, 10, 7), permute(static_cast<int64_t>(UINT64_MAX % 10), 10, 7));
}

} // namespace
} // namespace pglab::script
