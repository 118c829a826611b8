// tests/unit/lab: an experiment text parsed and planned, and the values of one of its runs.
#pragma once

#include "lab/plan/plan.hpp"
#include "lab/plan/run_values.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "experiment_test_util.hpp"

namespace pglab::lab::testing {

struct PlannedSpec {
    experiment::ExperimentSpec spec;
    plan::Plan plan;

    /// The values of the run with ordinal `run` (its cell's bindings and builtins).
    plan::RunValues values(std::size_t run) const {
        const plan::PlannedRun& r = plan.runs[run];
        return {plan.cells[r.cell], r};
    }
};

/// `text` parsed (it must be valid) and planned with `seed`.
inline PlannedSpec planned(const std::string& text, std::uint64_t seed = 1) {
    PlannedSpec f{experiment::testing::parse_ok(text), {}};
    auto p = plan::build_plan(f.spec, seed);
    EXPECT_TRUE(p) << p.error().message;
    if (p) {
        f.plan = *p;
    }
    return f;
}

} // namespace pglab::lab::testing
