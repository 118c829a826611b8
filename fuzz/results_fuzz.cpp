// libFuzzer target for damaged stored results: `pglab report`, `report --recheck` and `compare`
// on a results directory whose results.jsonl an input damages (checks in
// results_fuzz_harness.hpp). Findings become files under tests/golden/lab/results-fuzz/, which
// the unit test of the harness runs.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "results_fuzz_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string problem = pglab::fuzz::check_results_input(
        std::string_view(reinterpret_cast<const char*>(data), size));
    if (!problem.empty()) {
        std::fprintf(stderr, "results fuzz check failed: %s\n", problem.c_str());
        std::abort();
    }
    return 0;
}
