// lab/run: the `sleep` step.
#include "lab/run/step_kinds.hpp"
#include "util/stop_signal.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace pglab::lab::run {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

StepOutcome run_sleep(const experiment::Step& step, StepContext& /*ctx*/) {
    StepOutcome out;
    out.details = store::SleepStep{step.duration_ms};
    const auto end = Clock::now() + std::chrono::milliseconds(step.duration_ms);
    while (Clock::now() < end && !util::stop_requested()) {
        std::this_thread::sleep_for(
            std::min<Clock::duration>(end - Clock::now(), std::chrono::milliseconds(20)));
    }
    if (util::stop_signalled()) {
        out.stop(store::StepStatus::interrupted, "interrupted by signal");
    } else if (util::stop_requested()) {
        out.stop(store::StepStatus::timed_out, "stopped at the run's deadline (run_timeout)");
    }
    return out;
}

} // namespace pglab::lab::run
