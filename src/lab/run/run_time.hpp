// lab/run: the clock of a run and the names its records use.
#pragma once

#include "lab/experiment/experiment_spec.hpp"

#include <chrono>
#include <cstddef>
#include <string>

namespace pglab::lab::run {

using Clock = std::chrono::steady_clock;

/// Milliseconds from `a` to `b`.
double ms_between(Clock::time_point a, Clock::time_point b);

/// The local time in ISO 8601 with its offset ("2026-12-06T03:01:02+00:00"): a run's start as
/// results.jsonl records it.
std::string iso_now();

/// A step's key in the records: its name, or "INDEX:TYPE" ("1:bench") when it has none.
std::string step_key(const experiment::Step& step, std::size_t index);

} // namespace pglab::lab::run
