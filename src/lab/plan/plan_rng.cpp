// lab/plan: SplitMix64 and xoshiro256**, transcribed from the reference C code.
#include "lab/plan/plan_rng.hpp"

namespace pglab::lab::plan {
namespace {

std::uint64_t rotl(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

} // namespace

std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

PlanRng::PlanRng(std::uint64_t seed) {
    std::uint64_t state = seed;
    for (auto& s : m_s) {
        s = splitmix64(state);
    }
}

std::uint64_t PlanRng::next() {
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

std::uint64_t PlanRng::below(std::uint64_t n) {
    // 2^64 mod n: draws under this threshold would make small results more likely
    const std::uint64_t threshold = (0 - n) % n;
    for (;;) {
        const std::uint64_t r = next();
        if (r >= threshold) {
            return r % n;
        }
    }
}

} // namespace pglab::lab::plan
