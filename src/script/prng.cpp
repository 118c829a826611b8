// xoroshiro128** with splitmix64 seeding, bit-exact with PostgreSQL's src/common/pg_prng.c.
#include "script/prng.hpp"

#include <bit>
#include <cmath>

namespace pglab::script {

namespace {

constexpr uint64_t k_splitmix_increment = 0x9E3779B97F4A7C15ULL;
constexpr uint64_t k_splitmix_mul1 = 0xBF58476D1CE4E5B9ULL;
constexpr uint64_t k_splitmix_mul2 = 0x94D049BB133111EBULL;
// Knuth's LCG parameters, PostgreSQL's replacement for an all-zero state.
constexpr uint64_t k_nonzero_s0 = 0x5851F42D4C957F2DULL;
constexpr uint64_t k_nonzero_s1 = 0x14057B7EF767814FULL;

uint64_t splitmix64(uint64_t& state) {
    uint64_t v = (state += k_splitmix_increment);
    v = (v ^ (v >> 30)) * k_splitmix_mul1;
    v = (v ^ (v >> 27)) * k_splitmix_mul2;
    return v ^ (v >> 31);
}

} // namespace

void Prng::seed(uint64_t seed) {
    m_s0 = splitmix64(seed);
    m_s1 = splitmix64(seed);
    if (m_s0 == 0 && m_s1 == 0) {
        m_s0 = k_nonzero_s0;
        m_s1 = k_nonzero_s1;
    }
}

uint64_t Prng::next_u64() {
    const uint64_t s0 = m_s0;
    const uint64_t sx = m_s1 ^ s0;
    const uint64_t val = std::rotl(s0 * 5, 7) * 9;
    m_s0 = std::rotl(s0, 24) ^ sx ^ (sx << 16);
    m_s1 = std::rotl(sx, 37);
    return val;
}

uint64_t Prng::uint64_range(uint64_t lo, uint64_t hi) {
    if (hi <= lo) {
        return lo;
    }
    // Bitmask rejection: each draw is below twice the range, so ~2 iterations at most on average.
    const uint64_t range = hi - lo;
    const int rshift = std::countl_zero(range);
    uint64_t v = 0;
    do {
        v = next_u64() >> rshift;
    } while (v > range);
    return lo + v;
}

double Prng::next_double() {
    return std::ldexp(static_cast<double>(next_u64() >> 12), -52);
}

} // namespace pglab::script
