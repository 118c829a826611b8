// lab/run: warn_if_machine_busy, NeighbourWatch.
#include "lab/run/busy_machine.hpp"

#include "util/log.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace pglab::lab::run {

namespace {

/// The look before a plan: long enough to see a busy process take a fifth of a core.
constexpr auto k_busy_sample = std::chrono::milliseconds(300);
constexpr double k_busy_cpu_s = 0.06;

} // namespace

void warn_if_machine_busy() {
    const auto before = probe::benchmark_neighbours(::getpid());
    if (before.empty()) {
        return;
    }
    std::this_thread::sleep_for(k_busy_sample);
    const auto busy =
        probe::neighbour_cpu_since(before, probe::benchmark_neighbours(::getpid()), k_busy_cpu_s);
    for (const std::string& b : busy) {
        log::warning("another benchmark is busy on this machine, {} in the last {} ms: runs "
                     "measured beside it measure both (each run records what it took)",
                     b, k_busy_sample.count());
    }
}

void NeighbourWatch::start() {
    m_before = probe::benchmark_neighbours(::getpid());
}

std::vector<std::string> NeighbourWatch::since_start(double run_s) const {
    return probe::neighbour_cpu_since(m_before, probe::benchmark_neighbours(::getpid()),
                                      std::max(0.5, 0.1 * run_s));
}

} // namespace pglab::lab::run
