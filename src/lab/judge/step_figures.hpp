// lab/judge: the figures of each step, collected once from the finished runs (measured, successful
// runs only): every metric's values per cell, the merged latency histograms per cell and the
// per-second series. Claims are judged on them; the report draws them.
#pragma once

#include "lab/experiment/metric_catalogue.hpp"
#include "lab/judge/statistics.hpp"
#include "lab/store/bench_figures.hpp"
#include "lab/store/results_dir.hpp"
#include "stats/latency_histogram.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pglab::lab::judge {

/// The metrics' definitions are the experiment layer's catalogue (claims are checked against it).
using experiment::Direction;
using experiment::MetricInfo;

/// One measured run's figure of a metric.
struct RunFigure {
    double value = 0;
    int64_t run = 0;         ///< the run's number
    std::uint32_t round = 0; ///< the round it ran in (0: not in rounds)
    /// A proportion: the count it is of (the blocks a hit ratio is of); 0 for other metrics.
    double trials = 0;
};

/// The values of `runs`, in their order.
std::vector<double> values_of(const std::vector<RunFigure>& runs);

/// One metric of one step: its runs per cell, in execution order.
struct MetricValues {
    MetricInfo info;
    std::map<int64_t, std::vector<RunFigure>> by_cell;

    /// The values of the runs of `cell`, in order; empty when it has none.
    std::vector<double> values_in(int64_t cell) const;
    /// The run numbers of the runs of `cell`, in order.
    std::vector<int64_t> runs_in(int64_t cell) const;
};

/// The runs of `m` in `cell` as intervals read them: a proportion's with its counts.
Sample sample_in(const MetricValues& m, int64_t cell);

/// summarize() of the runs of `m` in `cell`, a proportion's interval on the log-odds scale.
Summary summary_in(const MetricValues& m, int64_t cell);

/// The per-second transactions of one bench run.
struct RunSeries {
    int64_t run = 0;
    int64_t cell = 0;
    int64_t repetition = 0;
    std::vector<std::pair<double, double>> points; ///< (elapsed_s, tps)
};

/// Two probes of one run that measure the same quantity but differ by more than 10x (a
/// statistic that lags: pg_stat_wal's wal.stat_bytes against the LSN's wal.bytes).
struct Disagreement {
    int64_t run = 0;
    std::string name_a; ///< the exact measure: "wal.bytes"
    double value_a = 0;
    std::string name_b; ///< the statistic: "wal.stat_bytes"
    double value_b = 0;
};

/// What the client (this pglab process) cost in one measured run of a step, and how it ran.
struct ClientCost {
    /// Its CPU over the step's elapsed time and the machine's cores (0..1), when both known.
    std::optional<double> machine_share;
    /// The server's processes were measured on this machine (server.cpu_s): the client's CPU
    /// was taken from the server's.
    bool beside_server = false;
    store::ClientPlacement placement; ///< bench: -c, -j, each thread's socket I/O and pinning
};

/// One [[steps]] table across all runs.
struct StepData {
    int64_t index = 0;
    std::string key;
    std::string type; ///< as recorded ("timed-sql"): shown and exported as such
    /// `type` as the step type it names; nullopt for one this pglab does not know.
    std::optional<experiment::StepType> kind;
    std::vector<MetricValues> metrics; ///< in a fixed order: step type's own, then probes
    /// bench: every measured run's latency histogram merged, per cell.
    std::map<int64_t, std::shared_ptr<stats::LatencyHistogram>> histograms;
    std::vector<RunSeries> series; ///< bench: per run
    /// Measured runs in which the probes counted a checkpoint during this step (run numbers).
    std::vector<int64_t> checkpoint_runs;
    /// What the client cost, per measured run (run number), when its CPU or placement is known.
    std::map<int64_t, ClientCost> client_costs;
    /// Measured runs in which two measures of one quantity disagree by more than 10x.
    std::vector<Disagreement> disagreements;
    /// Probes a measured run withheld or left out over this step, and why (its probe_notes):
    /// (run number, note), in run order.
    std::vector<std::pair<int64_t, std::string>> probe_notes;
    /// Steps whose histogram could not be parsed (run numbers), reported as problems.
    std::vector<int64_t> bad_histograms;
    /// Values left out because their unit cannot be shown with the metric's (a probe recorded
    /// as a count in one run and implied to be bytes by its name in an older line): metric id ->
    /// run numbers.
    std::map<std::string, std::vector<int64_t>> unit_conflicts;
};

/// The steps' figures, grown one finished run at a time: a run adds the values of its measured
/// steps (not a warm-up's, status ok, step ok), so a `repeat` until decided reads each run once
/// however often it looks.
class StepFigures {
public:
    /// Every step of `plan` has an entry, measured or not. `cores` (0 = unknown) turns client CPU
    /// seconds into a share of the machine.
    StepFigures(const std::optional<store::PlanRecord>& plan, int cores);

    void add(const store::RunRecord& run);

    /// The steps as the runs so far give them, in plan order (what a wait event's samples did not
    /// see counted as 0, the metrics in a fixed order).
    std::vector<StepData> steps() const;

private:
    std::vector<StepData> m_steps;
    int m_cores = 0;
};

/// Collects every step of `results` from its measured runs (StepFigures over all of them).
std::vector<StepData> collect_steps(const store::ResultsDir& results, int cores);

/// The metric `id` of `step`, or nullptr.
const MetricValues* find_metric(const StepData& step, std::string_view id);

} // namespace pglab::lab::judge
