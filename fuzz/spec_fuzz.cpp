// libFuzzer target for experiment files: parsing, validation, planning and per-run resolution
// (checks in spec_fuzz_harness.hpp). Findings become files under tests/golden/lab/experiment-fuzz/,
// which the unit test of the harness runs.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "spec_fuzz_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string problem =
        pglab::fuzz::check_spec_input(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!problem.empty()) {
        std::fprintf(stderr, "spec fuzz check failed: %s\n", problem.c_str());
        std::abort();
    }
    return 0;
}
