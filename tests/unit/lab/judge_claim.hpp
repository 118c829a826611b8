// One claim judged on a results directory built by a test, as the report judges it.
#pragma once

#include "lab/report/claims.hpp"
#include "lab/report/metrics.hpp"

#include <gtest/gtest.h>

namespace pglab::lab::testing {

inline report::ClaimResult judge_claim(const experiment::Claim& c, const report::ResultsDir& r) {
    const auto out = report::evaluate_claims({c}, r, report::collect_steps(r, 0));
    EXPECT_EQ(out.size(), 1U);
    return out.empty() ? report::ClaimResult{} : out.front();
}

} // namespace pglab::lab::testing
