// lab/run: the plan loop of `pglab run`, as named phases: prepare (parse, seed, plan:
// prepare.hpp), check (everything that can be refused before a server starts; --dry-run stops
// after it), open the store (locked), then each run (plan_runner.hpp), the rounds a `repeat`
// until decided adds (until_decided.hpp), and the closing line.
#include "lab/run/orchestrator.hpp"

#include "lab/run/busy_machine.hpp"
#include "lab/run/checks.hpp"
#include "lab/run/existing_servers.hpp"
#include "lab/run/plan_runner.hpp"
#include "lab/run/prepare.hpp"
#include "lab/run/run_progress.hpp"
#include "lab/run/servers.hpp"
#include "lab/run/source_builds.hpp"
#include "lab/run/until_decided.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "lab/store/results_store.hpp"
#include "util/log.hpp"
#include "util/stop_signal.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace pglab::lab::run {

namespace {

struct Totals {
    std::size_t ok = 0;
    std::size_t failed = 0;
    std::size_t timed_out = 0;
    double overhead_sum = 0;
    double overhead_max = 0;
};

/// Adds a finished run to `totals`; warns about one that did not end ok. False when it did not.
bool count_run(const RunRecord& record, const plan::PlannedRun& run, const plan::Cell& cell,
               Progress& progress, Totals& totals) {
    totals.overhead_sum += record.timings.overhead_ms;
    totals.overhead_max = std::max(totals.overhead_max, record.timings.overhead_ms);
    const store::RunStatus status = record.status();
    if (status == store::RunStatus::ok) {
        ++totals.ok;
        return true;
    }
    ++(status == store::RunStatus::timed_out ? totals.timed_out : totals.failed);
    progress.end();
    // One line on the terminal: a reason that holds a server log's last lines keeps them in
    // results.jsonl and the step's log, not among pglab's lines.
    const std::string reason = record.failure ? record.failure->reason : "";
    const std::string shown = util::first_line(reason);
    log::warning("run {} ({}) {}: {}{}", run.ordinal, util::shorten(cell.label, 200),
                 status == store::RunStatus::timed_out ? "timed out" : "failed",
                 util::shorten(shown, 2000),
                 shown.size() < reason.size() ? " (the rest in results.jsonl)" : "");
    return false;
}

/// Runs the plan's runs not finished yet, in plan order, appending each one's line, then (for a
/// `repeat` until decided) the rounds plan_next_round() adds, until the end, a signal
/// (`interrupted`), a line that cannot be written, or a failure with on_error = "stop".
PlanOutcome run_plan(Prepared& p, ServerSet& servers, store::ResultsStore& results,
                     Progress& progress, Totals& totals, bool& interrupted) {
    PlanOutcome outcome = PlanOutcome::complete;
    warn_if_machine_busy();
    PlanRunner runner(p.spec, p.plan, servers, results);
    std::optional<judge::ClaimJudge> judge = judge_for_rounds(p, results);
    for (std::size_t i = 0;; ++i) {
        if (i == p.plan.runs.size()) {
            if (outcome != PlanOutcome::complete) {
                break;
            }
            if (util::stop_signalled()) { // a round may still be due: --resume adds it
                interrupted = p.spec.until_decided.has_value();
                break;
            }
            if (!judge || !plan_next_round(p, *judge, results, progress)) {
                break;
            }
        }
        const plan::PlannedRun run = p.plan.runs[i]; // a copy: a round may grow the plan
        if (results.finished().count(run.ordinal)) {
            continue;
        }
        if (util::stop_signalled()) {
            interrupted = true;
            break;
        }
        const plan::Cell& cell = p.plan.cells[run.cell];
        progress.starting(run, cell);
        std::optional<RunRecord> record = runner.execute(run);
        if (!record) {
            interrupted = true; // an interrupted run gets no line: --resume runs it again
            break;
        }
        if (auto st = results.append_run(*record); !st) {
            progress.end();
            log::print(st.error());
            return PlanOutcome::failed;
        }
        progress.finished();
        if (judge) {
            judge->add(store::FinishedRun{.line = 0, .record = *record});
        }
        if (!count_run(*record, run, cell, progress, totals)) {
            outcome = PlanOutcome::failed;
            if (p.spec.on_error == experiment::OnError::stop) {
                break;
            }
        }
    }
    return outcome;
}

/// The closing line: runs by status, restarts per server, the orchestration's overhead.
void log_totals(const Totals& totals, ServerSet& servers, std::size_t finished,
                std::size_t planned) {
    const std::size_t ran = totals.ok + totals.failed + totals.timed_out;
    std::string restarts;
    for (const auto& [name, state] : servers.all()) {
        restarts += fmt::format("{}{}: {}", restarts.empty() ? "" : ", ", name, state.restarts);
    }
    log::info("{} run(s) finished ({} ok, {} failed, {} timed out), {} of {} in the plan; "
              "restarts: {}; orchestration overhead per run: mean {:.1f} ms, max {:.1f} ms",
              ran, totals.ok, totals.failed, totals.timed_out, finished, planned, restarts,
              ran > 0 ? totals.overhead_sum / static_cast<double>(ran) : 0.0, totals.overhead_max);
}

/// The installations fetched or built (a dry run only says which it would), then every check
/// that needs no server started, each problem named.
Status ready_to_start(const Prepared& p, const RunRequest& request, ServerSet& servers) {
    bool to_fetch = false; // --dry-run: a version the run would fetch
    const auto unfetchable = fetch_missing_versions(p.spec, request, to_fetch);
    bool to_build = false; // --dry-run: a source tree the run would build
    PGLAB_TRY(build_missing_sources(p.spec, request, to_build));
    if ((to_fetch || to_build) && unfetchable.empty()) {
        log::warning("the checks that need the installations (setting names) are not made: the "
                     "run makes them once it has fetched or built the missing installations");
        return {};
    }
    return check_before_start(p.spec, p.plan, servers, unfetchable);
}

} // namespace

RunOutcome run_experiment(const RunRequest& request) {
    auto prepared = prepare(request);
    if (!prepared) {
        log::print(prepared.error());
        return {PlanOutcome::not_started, {}};
    }
    Prepared& p = *prepared;
    ServerSet servers(p.spec);
    if (auto st = ready_to_start(p, request, servers); !st) {
        log::print(st.error());
        return {PlanOutcome::not_started, {}};
    }
    if (request.dry_run) {
        if (auto st = print_dry_run(p, request); !st) {
            log::print(st.error());
            return {PlanOutcome::not_started, {}};
        }
        return {PlanOutcome::complete, {}};
    }
    if (auto st = check_destructive_steps(p.spec, p.plan, request.yes); !st) {
        log::print(st.error());
        return {PlanOutcome::not_started, {}};
    }
    // SIGINT and SIGTERM only ask the plan to stop (however often they come), so that the clusters
    // are stopped and removed by their destructors. The scopes of a bench or init step nest
    // inside it and change nothing.
    const util::StopSignals signals(util::StopSignals::Repeat::is_noted);
    server::remove_stale_clusters(std::filesystem::temp_directory_path());
    if (auto st = open_store(request, p); !st) {
        log::print(st.error());
        return {PlanOutcome::not_started, {}};
    }
    store::ResultsStore& results = *p.store;
    servers.keep_logs([&results](const std::string& server, int cluster) {
        return results.server_log(server, cluster);
    });
    // From here on the run's messages are kept with its results (they carry no password:
    // connection strings are redacted wherever they are printed).
    const log::CopyToFile log_copy((results.dir() / "pglab.log").string());
    const std::size_t already = results.finished().size();
    if (!request.resume_dir.empty()) {
        log::info("resuming \"{}\": {} of {} runs already finished", results.dir().string(),
                  already, p.plan.runs.size());
    }

    Progress progress(p.plan.runs.size(), already);
    Totals totals;
    bool interrupted = false;
    PlanOutcome outcome = run_plan(p, servers, results, progress, totals, interrupted);
    progress.end();
    servers.remove_clusters(); // the server logs are already in the results directory
    log_totals(totals, servers, results.finished().size(), p.plan.runs.size());
    if (interrupted) {
        log::warning("interrupted: continue with \"pglab run --resume {}\"",
                     results.dir().string());
        outcome = PlanOutcome::interrupted;
    }
    std::printf("results: %s\n", results.dir().string().c_str());
    std::fflush(stdout);
    return {outcome, results.dir()};
}

} // namespace pglab::lab::run
