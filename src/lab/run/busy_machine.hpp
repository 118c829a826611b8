// lab/run: other benchmarks on this machine. A study measured while another pglab or pgbench
// takes the CPU measures the two together: pglab says so before the plan starts, and records
// with each run what the others took during it.
#pragma once

#include "lab/probe/probe.hpp"

#include <string>
#include <vector>

namespace pglab::lab::run {

/// Warns on stderr when another pglab or pgbench takes CPU on this machine now (sampled over a
/// few hundred milliseconds).
void warn_if_machine_busy();

/// The other benchmarks' CPU over one run.
class NeighbourWatch {
public:
    /// Notes what the other benchmarks have used so far (at a run's start).
    void start();

    /// Those that used more than a tenth of `run_s` (and half a second) since start():
    /// "pglab (pid 1234): 12.5 s of CPU".
    std::vector<std::string> since_start(double run_s) const;

private:
    std::vector<probe::Neighbour> m_before;
};

} // namespace pglab::lab::run
