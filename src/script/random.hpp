// pgbench's random distributions, hash functions and permute(), bit-exact with pgbench 15.
// Pure functions of a Prng; no clock, no I/O.
#pragma once

#include "script/prng.hpp"

#include <cstdint>

namespace pglab::script {

/// Smallest accepted parameters (pgbench's MIN_GAUSSIAN_PARAM, MIN/MAX_ZIPFIAN_PARAM).
inline constexpr double k_min_gaussian_param = 2.0;
inline constexpr double k_min_zipfian_param = 1.001;
inline constexpr double k_max_zipfian_param = 1000.0;

/// Uniform in [min, max]; max - min must not overflow (the caller checks).
int64_t random_uniform(Prng& prng, int64_t min, int64_t max);

/// Exponential in [min, max]: density of `max` is exp(-parameter) times that of `min`;
/// parameter > 0.
int64_t random_exponential(Prng& prng, int64_t min, int64_t max, double parameter);

/// Gaussian in [min, max] cut at +-parameter standard deviations (Box-Muller, parameter >= 2).
int64_t random_gaussian(Prng& prng, int64_t min, int64_t max, double parameter);

/// Zipfian in [min, max] with exponent s (Devroye's rejection method, "Non-Uniform Random
/// Variate Generation", p. 550-551, 1986); 1.001 <= s <= 1000.
int64_t random_zipfian(Prng& prng, int64_t min, int64_t max, double s);

/// Poisson-like delay around `center` (used for --rate schedules), rounded to an integer.
int64_t random_poisson(Prng& prng, double center);

/// MurmurHash2, 64-bit, of the 8 bytes of `v`.
int64_t hash_murmur2(int64_t v, uint64_t seed);

/// FNV-1a over the 8 bytes of `v` (low byte first).
int64_t hash_fnv1a(int64_t v, uint64_t seed);

/// A pseudorandom bijection of [0, size) applied to `v` mod size; size must be > 0.
int64_t permute(int64_t v, int64_t size, int64_t seed);

} // namespace pglab::script
