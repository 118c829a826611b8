// What fell into a measured step besides the work it measures: a setup step run before it with no
// settle between, a checkpoint, an autovacuum or autoanalyze run, other processes' CPU, steal of a
// virtual machine's CPUs. The report flags the
// runs each fell into and gives each cell's spread with and without them; nothing is dropped.
#pragma once

#include "lab/report/document.hpp"
#include "lab/report/metrics.hpp"
#include "lab/report/results.hpp"

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace pglab::lab::report {

/// Above these shares of the machine's CPU time during a step (cores × its elapsed time), other
/// processes' CPU or steal disturb a run.
inline constexpr double k_other_cpu_share = 0.10;
inline constexpr double k_steal_share = 0.05;

/// One measured run of a step and what fell into it.
struct RunDisturbance {
    int64_t run = 0;
    int64_t cell = 0;
    /// Keys of the `once` steps that ran in this run before the step with no settle between
    /// ("0:init"): their writes and dirty pages are in its figures.
    std::vector<std::string> after_setup;
    std::vector<std::string> what; ///< "a checkpoint", "1 autovacuum run", "steal 12%"...

    /// Everything said of the run: the setup it follows, then `what`.
    std::vector<std::string> causes() const;
};

struct StepDisturbances {
    std::string step;
    std::vector<RunDisturbance> runs; ///< the disturbed runs, in run order
};

/// The disturbed runs of each measured step of `results` (steps with none are left out).
/// `once` names the steps that run once per server: one that ran in a run and is not among the
/// setup its settle came after (`settle.after`) disturbs the measured steps after it. `cores`
/// (0 = unknown) turns CPU seconds into shares of the machine; without it only setup,
/// checkpoints and autovacuum are judged.
std::vector<StepDisturbances> collect_disturbances(const ResultsDir& results,
                                                   const std::vector<StepData>& steps,
                                                   const std::set<std::string>& once, int cores);

/// The runs of `cell` in `disturbed` (a step's), each as "run 3: 1 autovacuum run".
std::vector<std::string> cell_disturbances(const StepDisturbances& disturbed, int64_t cell);

/// The report's "Disturbances" section: per step, the runs and what fell into them, and for its
/// first metric each cell's coefficient of variation with and without those runs.
void add_disturbances_section(const std::vector<StepDisturbances>& disturbed,
                              const std::vector<StepData>& steps,
                              const std::function<std::string(int64_t)>& cell_label, Document& doc);

} // namespace pglab::lab::report
