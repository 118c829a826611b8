// The narrow seam through which several processes run one benchmark (src/fleet/, under MPI):
// an agreed start instant and a monitor on the runner's thread while the workers run. Without
// hooks (RunConfig::hooks == nullptr) the runner behaves as pgbench, unchanged.
#pragma once

#include "stats/progress_line.hpp"
#include "util/clock.hpp"
#include "util/result.hpp"

#include <functional>

namespace pglab::bench {

class RunHooks {
public:
    virtual ~RunHooks() = default;

    /// Called after set-up (banner, vacuum), before the worker threads start: waits for every
    /// other process and returns the monotonic instant (µs, this process's clock) at which this
    /// process starts its threads; -T counts from it. An error ends the run (exit 1).
    virtual Result<usec_t> agree_start() = 0;

    /// Called on the runner's thread while the workers run, instead of pgbench's progress
    /// reporter; returns once `done()` is true. `snapshot()` reads this process's cumulative
    /// counters (time_us set to now). It may ask the workers to stop (util::request_deadline_stop).
    virtual void monitor(const std::function<stats::ProgressSnapshot()>& snapshot,
                         const std::function<bool()>& done) = 0;
};

} // namespace pglab::bench
