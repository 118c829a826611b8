// lab/plan: the fixed pseudo-random generator that orders plans. Same seed, same numbers, on
// every platform and standard library (std:: distributions differ between libraries, so none
// is used): SplitMix64 expands the seed, xoshiro256** 1.0 draws, rejection sampling bounds.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace pglab::lab::plan {

/// xoshiro256** 1.0 (Blackman and Vigna, "Scrambled linear pseudorandom number generators",
/// 2018; https://prng.di.unimi.it/xoshiro256starstar.c) seeded through SplitMix64 (Steele, Lea
/// and Flood, "Fast splittable pseudorandom number generators", 2014) as its authors advise.
class PlanRng {
public:
    explicit PlanRng(std::uint64_t seed);

    /// The next 64 random bits.
    std::uint64_t next();

    /// A uniform integer in [0, n) without modulo bias (rejection of the low remainder); n > 0.
    std::uint64_t below(std::uint64_t n);

    /// Fisher-Yates shuffle, drawing from the last element down.
    template <class T>
    void shuffle(std::vector<T>& items) {
        for (std::size_t i = items.size(); i > 1; --i) {
            const auto j = static_cast<std::size_t>(below(i));
            std::swap(items[i - 1], items[j]);
        }
    }

private:
    std::uint64_t m_s[4];
};

/// One SplitMix64 step: advances `state` and returns the next output.
std::uint64_t splitmix64(std::uint64_t& state);

} // namespace pglab::lab::plan
