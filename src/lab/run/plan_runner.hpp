// lab/run: one run of a plan, in phases: the servers for its cell, settling the cell's server, its
// steps (each through the step kinds of steps.cpp, with its probes around it, under the run's
// deadline), the server's facts, and its record.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/plan/plan.hpp"
#include "lab/plan/run_values.hpp"
#include "lab/probe/probe.hpp"
#include "lab/probe/vacuum_verbose.hpp"
#include "lab/probe/wait_sampler.hpp"
#include "lab/run/busy_machine.hpp"
#include "lab/run/crash_watch.hpp"
#include "lab/run/left_waiting.hpp"
#include "lab/run/run_time.hpp"
#include "lab/run/servers.hpp"
#include "lab/run/step_progress.hpp"
#include "lab/run/steps.hpp"
#include "lab/run/watchdog.hpp"
#include "lab/store/results_store.hpp"
#include "lab/store/run_record.hpp"
#include "util/result.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::run {

using store::RunRecord;
using store::StepRecord;
using store::StepStatus;

/// Executes the runs of a plan, one at a time.
class PlanRunner {
public:
    PlanRunner(const experiment::ExperimentSpec& spec, const plan::Plan& plan, ServerSet& servers,
               store::ResultsStore& results)
        : m_spec(spec), m_plan(plan), m_servers(servers), m_store(results),
          m_watchdog(servers.backends()) {}

    /// The run's record; nothing when SIGINT/SIGTERM cut it short (it gets no line).
    std::optional<RunRecord> execute(const plan::PlannedRun& run);

private:
    RunRecord begin(const plan::PlannedRun& run) const;
    bool prepare_servers(RunRecord& record, const plan::Cell& cell);
    /// Settles the cell's server before the run's first step (settle.hpp) and records how.
    void settle(RunRecord& record, const plan::Cell& cell);
    Status ensure_server(const std::string& name, const plan::Cell& cell, int& restarts);
    /// Steps [from, to) of the run. False when a signal interrupted the run.
    bool run_steps(RunRecord& record, const plan::RunValues& values, std::size_t from,
                   std::size_t to, bool& stop_steps);
    /// The ends of the statements left waiting, once the run's steps are done.
    void finish_steps(RunRecord& record);
    /// How many of the first steps are setup to run before the run settles: the leading `once`
    /// steps not measured (a once init; a measured once step runs on a settled server).
    std::size_t setup_steps() const;
    /// Adds the ends of statements left waiting, known since the last call, to their steps.
    void add_late_outcomes(RunRecord& record);
    StepRecord run_step(RunRecord& record, std::size_t index, const plan::RunValues& values,
                        bool& stop_steps, bool& interrupted);
    /// Why the step is skipped in this run ("when", "once"; "" when it runs); `fingerprint` gets
    /// its expanded fields when it runs once per server. Error when its `when` cannot be read.
    Result<std::string> skip_reason(const experiment::Step& step, std::size_t index,
                                    const plan::RunValues& values, const std::string& server,
                                    std::string& fingerprint);
    /// Runs step `s.index` with its probes around it: `s` gets its elapsed time, probes,
    /// replication lag and log; nothing more after a signal.
    StepOutcome measure_step(RunRecord& record, StepRecord& s, const plan::RunValues& values);
    /// Where step `s` of the run writes its log (/dev/null when the run has no directory).
    std::filesystem::path step_log(const RunRecord& record, const StepRecord& s) const;

    /// What the server's statistics were before a measured step: its probes' snapshot and the
    /// client backends already there.
    struct StepBaseline {
        std::optional<probe::Snapshot> snapshot;
        std::set<int> backends;
    };

    StepBaseline open_step_statistics(StepRecord& s);
    /// The step executed under its progress line, wait sampler and log of notices; `s` gets its
    /// elapsed time, `wait_averages` what the sampler saw.
    StepOutcome run_watched(RunRecord& record, StepRecord& s, const plan::RunValues& values,
                            const std::filesystem::path& log, bool measured,
                            probe::Deltas& wait_averages);
    /// A crash of the step's server while it ran fails the step, naming the crash.
    void blame_crash(StepOutcome& outcome);
    /// The closing snapshot of a measured step, once the statistics the step made are in
    /// (step_statistics.hpp): `s` gets the probes' differences, pg_stat_wal's record counters
    /// withheld when they do not account for the WAL written, and the notes saying what was.
    /// The step's VACUUM and ANALYZE VERBOSE figures (vacuum_verbose.hpp) among its probes, the
    /// lines pglab could not read among its probe notes.
    void add_verbose_figures(StepRecord& s, const probe::VerboseFigures& verbose);
    void close_step_statistics(StepRecord& s, const StepBaseline& baseline);
    /// `s` as the outcome says, the run's deadline and a server that died under it taken into
    /// account; a failure fails the run and stops its later steps, but for a check.
    void settle_step(RunRecord& record, StepRecord& s, StepOutcome outcome,
                     const std::string& fingerprint, bool& stop_steps);
    void record_server(RunRecord& record, const plan::Cell& cell);
    std::optional<pg::ConnParams> progress_server(experiment::StepType type,
                                                  const std::string& server);
    std::unique_ptr<probe::WaitSampler>
    start_wait_sampler(const experiment::Step& step, bool measured, const std::string& server);
    void fail(RunRecord& record, std::optional<std::size_t> step, std::string reason) const;
    std::string timeout_reason(std::string_view what) const;

    const experiment::ExperimentSpec& m_spec;
    const plan::Plan& m_plan;
    ServerSet& m_servers;
    store::ResultsStore& m_store;
    Watchdog m_watchdog;
    StepProgress m_progress;
    CrashWatch m_crashes;        ///< each step's servers' logs, for a crash-restart during it
    LeftWaiting m_left_waiting;  ///< statements expect_blocked left waiting in this run
    NeighbourWatch m_neighbours; ///< other benchmarks' CPU during the run
    Clock::time_point m_run_start;
    Clock::time_point m_steps_start; ///< when the run's steps began (its deadline counts from it)
    std::optional<Clock::time_point> m_deadline;
    std::vector<experiment::Setting> m_settings; ///< of the cell's server, this run
};

} // namespace pglab::lab::run
