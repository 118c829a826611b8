// Seed specifications of --random-seed / PGBENCH_RANDOM_SEED, parsed with sscanf as pgbench does
// so that " 5" is accepted, "5 " is not and "-1" wraps to 2^64-1.
#include "options/random_seed.hpp"

#include "util/clock.hpp"

#include <fmt/format.h>

#include <sys/random.h>

#include <cinttypes>
#include <cstdio>
#include <string>

namespace pglab::options {

uint64_t default_random_seed() {
    return static_cast<uint64_t>(now_us());
}

Result<uint64_t> parse_random_seed(std::string_view spec) {
    if (spec == "time") {
        return default_random_seed();
    }
    if (spec == "rand") {
        uint64_t seed = 0;
        if (getrandom(&seed, sizeof(seed), 0) != static_cast<ssize_t>(sizeof(seed))) {
            return make_error("could not generate random seed");
        }
        return seed;
    }
    const std::string text(spec);
    uint64_t seed = 0;
    char garbage = 0;
    if (std::sscanf(text.c_str(), "%" SCNu64 "%c", &seed, &garbage) != 1) {
        return make_error(Error(fmt::format("unrecognized random seed option \"{}\"", spec),
                                "Expecting an unsigned integer, \"time\" or \"rand\"."));
    }
    return seed;
}

} // namespace pglab::options
