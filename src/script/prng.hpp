// pgbench's pseudo-random generator: xoroshiro128** seeded by splitmix64 (PostgreSQL's
// pg_prng.c), bit-exact so that --random-seed reproduces pgbench's values client for client.
#pragma once

#include <cstdint>

namespace pglab::script {

class Prng {
public:
    /// Seeds from a 64-bit value with two splitmix64 outputs (pg_prng_seed).
    void seed(uint64_t seed);

    uint64_t next_u64();

    /// Uniform in [lo, hi] by rejection sampling (pg_prng_uint64_range).
    uint64_t uint64_range(uint64_t lo, uint64_t hi);

    /// Uniform in [0, 1) with 52 random bits (pg_prng_double).
    double next_double();

private:
    uint64_t m_s0 = 0;
    uint64_t m_s1 = 0;
};

} // namespace pglab::script
