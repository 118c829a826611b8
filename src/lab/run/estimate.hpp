// lab/run: how long a plan will take (for --dry-run): the durations the experiment file tells
// (bench steps' --time, sleeps, expect_blocked waits), and for the other steps and the servers'
// time the times an earlier run of the experiment measured (StoredTimes); what neither tells
// (no earlier run, a step it never ran) is counted, with the timeouts that bound it.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/plan/plan.hpp"
#include "lab/run/stored_times.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace pglab::lab::run {

struct TimeEstimate {
    std::int64_t known_ms = 0; ///< bench durations, sleeps, blocking checks over every run
    /// The other steps' times and each run's server time as the earlier run measured them.
    std::int64_t measured_ms = 0;
    const StoredTimes* measured_in = nullptr; ///< that run; nullptr: none was found
    bool quick = false;                       ///< the plan is of the quick form
    /// Init steps no earlier run of the experiment timed, timed by `init_model` instead.
    std::size_t modelled_inits = 0;
    const InitModel* init_model = nullptr;
    /// Steps whose time the file does not tell, by kind ("init", "bench by transactions"...),
    /// counted over every run (a `once` step counted where it will run).
    std::map<std::string, std::size_t> unknown;
    std::int64_t bounded_ms = 0; ///< the timeouts of those of them that have one (at most)
};

/// The estimate of `plan` (steps skipped by `when` or already done `once` are left out), from
/// the file and, when given, the times of an earlier run (`stored`) and, for an init step it does
/// not time, the model fitted to the inits of any (`init_model`); both must outlive it.
TimeEstimate estimate_plan(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                           const StoredTimes* stored = nullptr,
                           const InitModel* init_model = nullptr);

/// With an earlier run: "about 1h02m (bench durations and sleeps from the file; the other steps
/// and 0.5 s a run for the servers as 36 runs of DIR measured them, 2026-12-06)". Without:
/// "at least 12m30s (bench durations, sleeps, blocking checks); not estimated: 4 init, 8 sql
/// (up to 10m more by their timeouts)", only the part after ";" when no step's time is known.
std::string describe(const TimeEstimate& estimate);

} // namespace pglab::lab::run
