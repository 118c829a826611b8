// lab/run: a line for each step as it begins and ends, for a program that drives `pglab run`
// from outside and must act while a given step is under way (bench/fault-campaign lands its
// faults in each step kind by it; a test can wait for a step without watching the server).
#pragma once

#include <cstddef>
#include <string_view>

namespace pglab::lab::run {

/// Appends `<unix ms> <begin|end> run=<ordinal> step=<key> type=<type>` to the file that the
/// environment's PGLAB_STEP_EVENTS names (written in place: a FIFO or a file a reader tails),
/// each line written whole by one write(2). Nothing when the variable is unset or empty; a file
/// that cannot be opened is said once, as a warning, and the run goes on.
void step_event(std::string_view what, std::size_t run, std::string_view key,
                std::string_view type);

} // namespace pglab::lab::run
