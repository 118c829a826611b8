// Evidence and allowances of fixed figures, for the tests of the verdict rules and their words.
#pragma once

#include "lab/judge/verdict_rules.hpp"

namespace pglab::lab::judge::testing {

/// A figure from 5 runs at a single look with the given 90% and 95% intervals.
inline Evidence sampled(double value, Interval ci90, Interval ci95) {
    Evidence e;
    e.value = value;
    e.runs = 5;
    e.ci90 = ci90;
    e.ci95 = ci95;
    e.agree_ci = ci90;
    e.differ_ci = ci95;
    return e;
}

/// What a claim of `paper` ± `tolerance` allows.
inline Allowed band(double paper, double tolerance) {
    experiment::Claim c;
    c.paper = paper;
    c.tolerance = tolerance;
    return allowed_by(c);
}

} // namespace pglab::lab::judge::testing
