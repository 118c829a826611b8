// Random distributions, hashes and permute() exactly as pgbench 15 computes them.
#include "script/random.hpp"

#include <bit>
#include <cmath>
#include <numbers>

namespace pglab::script {

namespace {

constexpr uint64_t k_fnv_prime = 0x100000001b3ULL;
constexpr uint64_t k_fnv_offset_basis = 0xcbf29ce484222325ULL;
constexpr uint64_t k_mm2_mul = 0xc6a4a7935bd1e995ULL;
constexpr uint64_t k_mm2_mul_times_8 = 0x35253c9ade8f4ca8ULL;
constexpr int k_mm2_rot = 47;

int64_t scale_unit(int64_t min, int64_t max, double unit) {
    return min + static_cast<int64_t>(static_cast<double>(max - min + 1) * unit);
}

} // namespace

int64_t random_uniform(Prng& prng, int64_t min, int64_t max) {
    const auto range = static_cast<uint64_t>(max) - static_cast<uint64_t>(min);
    return static_cast<int64_t>(static_cast<uint64_t>(min) + prng.uint64_range(0, range));
}

int64_t random_exponential(Prng& prng, int64_t min, int64_t max, double parameter) {
    const double cut = std::exp(-parameter);
    // next_double() is in [0, 1); uniform is in (0, 1].
    const double uniform = 1.0 - prng.next_double();
    const double r = -std::log(cut + (1.0 - cut) * uniform) / parameter;
    return scale_unit(min, max, r);
}

int64_t random_gaussian(Prng& prng, int64_t min, int64_t max, double parameter) {
    double stdev = 0.0;
    do {
        // Box-Muller wants both uniforms in (0, 1].
        const double u1 = 1.0 - prng.next_double();
        const double u2 = 1.0 - prng.next_double();
        stdev = std::sqrt(-2.0 * std::log(u1)) * std::sin(2.0 * std::numbers::pi * u2);
    } while (stdev < -parameter || stdev >= parameter);
    const double r = (stdev + parameter) / (parameter * 2.0);
    return scale_unit(min, max, r);
}

int64_t random_zipfian(Prng& prng, int64_t min, int64_t max, double s) {
    const int64_t n = max - min + 1;
    if (n <= 1) {
        return min;
    }
    const double b = std::pow(2.0, s - 1.0);
    double x = 0.0;
    while (true) {
        const double u = prng.next_double();
        const double v = prng.next_double();
        x = std::floor(std::pow(u, -1.0 / (s - 1.0)));
        const double t = std::pow(1.0 + 1.0 / x, s - 1.0);
        if (v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= static_cast<double>(n)) {
            break;
        }
    }
    return min - 1 + static_cast<int64_t>(x);
}

int64_t random_poisson(Prng& prng, double center) {
    const double uniform = 1.0 - prng.next_double();
    return static_cast<int64_t>(-std::log(uniform) * center + 0.5);
}

int64_t hash_fnv1a(int64_t v, uint64_t seed) {
    uint64_t result = k_fnv_offset_basis ^ seed;
    for (int i = 0; i < 8; ++i) {
        const auto octet = static_cast<uint64_t>(v & 0xff);
        v >>= 8; // arithmetic shift, as pgbench does on its int64
        result = (result ^ octet) * k_fnv_prime;
    }
    return static_cast<int64_t>(result);
}

int64_t hash_murmur2(int64_t v, uint64_t seed) {
    uint64_t result = seed ^ k_mm2_mul_times_8;
    auto k = static_cast<uint64_t>(v);
    k *= k_mm2_mul;
    k ^= k >> k_mm2_rot;
    k *= k_mm2_mul;
    result ^= k;
    result *= k_mm2_mul;
    result ^= result >> k_mm2_rot;
    result *= k_mm2_mul;
    result ^= result >> k_mm2_rot;
    return static_cast<int64_t>(result);
}

int64_t permute(int64_t val, int64_t isize, int64_t seed) {
    if (isize < 2) {
        return 0;
    }
    Prng prng;
    prng.seed(static_cast<uint64_t>(seed));
    const auto size = static_cast<uint64_t>(isize);
    uint64_t v = static_cast<uint64_t>(val) % size;
    // Work modulo the largest power of 2 <= size, on overlapping lower and upper halves.
    const int masklen = 63 - std::countl_zero(size);
    const uint64_t mask = (uint64_t{1} << masklen) - 1;
    for (int i = 0; i < 6; ++i) {
        uint64_t m = (prng.next_u64() & mask) | 1;
        uint64_t r = prng.next_u64() & mask;
        if (v <= mask) {
            v = ((v * m) ^ r) & mask;
            v = ((v << 1) & mask) | (v >> (masklen - 1));
        }
        m = (prng.next_u64() & mask) | 1;
        r = prng.next_u64() & mask;
        uint64_t t = size - 1 - v;
        if (t <= mask) {
            t = ((t * m) ^ r) & mask;
            t = ((t << 1) & mask) | (t >> (masklen - 1));
            v = size - 1 - t;
        }
        r = prng.uint64_range(0, size - 1);
        v = (v + r) % size;
    }
    return static_cast<int64_t>(v);
}

} // namespace pglab::script
