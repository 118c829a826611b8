// The seed of the base random generator: --random-seed and PGBENCH_RANDOM_SEED values as pgbench
// interprets them ("time", "rand" or an unsigned integer).
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <string_view>

namespace pglab::options {

/// Parses a seed specification: "time" (the monotonic clock in µs, as pgbench's pg_time_now),
/// "rand" (getrandom), or an unsigned integer as sscanf("%lu%c") reads it (leading blanks and a
/// minus sign accepted, nothing may follow). Errors: `unrecognized random seed option "X"` with
/// detail `Expecting an unsigned integer, "time" or "rand".`; `could not generate random seed`.
Result<uint64_t> parse_random_seed(std::string_view spec);

/// The seed pgbench uses when neither --random-seed nor PGBENCH_RANDOM_SEED is given ("time").
uint64_t default_random_seed();

} // namespace pglab::options
