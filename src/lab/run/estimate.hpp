// lab/run: how long a plan will take, as far as the experiment file tells (for --dry-run): the
// durations of bench steps (--time), sleeps and expect_blocked waits; what cannot be told
// (init, benches by transaction count, statements) is counted, with the timeouts that bound it.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/plan/plan.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace pglab::lab::run {

struct TimeEstimate {
    std::int64_t known_ms = 0; ///< bench durations, sleeps, blocking checks over every run
    /// Steps whose time the file does not tell, by kind ("init", "bench by transactions"...),
    /// counted over every run (a `once` step counted where it will run).
    std::map<std::string, std::size_t> unknown;
    std::int64_t bounded_ms = 0; ///< the timeouts of those of them that have one (at most)
};

/// The estimate of `plan` (steps skipped by `when` or already done `once` are left out).
TimeEstimate estimate_plan(const experiment::ExperimentSpec& spec, const plan::Plan& plan);

/// "at least 12m30s (bench durations, sleeps, blocking checks); not estimated: 4 init, 8 sql
/// (up to 10m more by their timeouts)"; only the part after ";" when no step's time is known.
std::string describe(const TimeEstimate& estimate);

} // namespace pglab::lab::run
