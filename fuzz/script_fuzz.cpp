// libFuzzer target for the script language: loading, compiling, printing expressions back and
// evaluating them (checks in script_fuzz_harness.hpp). Build and run: `make fuzz-quick`.
#include <pthread.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "script_fuzz_harness.hpp"

namespace {

/// Expressions may nest 10000 deep (as in pgbench); under ASan the recursion needs more than
/// the main thread's 8 MB, so every input runs on a thread with a large stack.
constexpr size_t k_stack_size = size_t{256} << 20;

struct Job {
    std::string_view input;
    std::string problem;
};

void* run_job(void* arg) {
    auto* job = static_cast<Job*>(arg);
    job->problem = pglab::fuzz::check_script_input(job->input);
    return nullptr;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Job job{std::string_view(reinterpret_cast<const char*>(data), size), {}};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, k_stack_size);
    pthread_t thread;
    if (pthread_create(&thread, &attr, run_job, &job) != 0) {
        std::abort();
    }
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    if (!job.problem.empty()) {
        std::fprintf(stderr, "script fuzz check failed: %s\n", job.problem.c_str());
        std::abort();
    }
    return 0;
}
