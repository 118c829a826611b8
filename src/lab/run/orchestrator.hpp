// lab/run: `pglab run`: parses and checks an experiment, plans it, and executes the plan run by
// run: throwaway servers created once per server and reconfigured (restarted only when a changed
// setting has context postmaster, or a step asks), steps executed in-process (init, bench, sql,
// timed-sql, explain...), probes around measured steps, one results.jsonl line per finished run
// (lab/store). SIGINT/SIGTERM end it cleanly: finished runs are kept, clusters removed.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::run {

struct RunRequest {
    std::filesystem::path experiment;  ///< the experiment file (unused with `resume_dir`)
    std::filesystem::path results_dir; ///< empty: results/<name>-<timestamp>
    std::filesystem::path resume_dir;  ///< non-empty: continue the plan recorded there
    std::optional<std::uint64_t> seed; ///< --seed: overrides the file's seed
    bool dry_run = false;              ///< print the plan, start nothing
    /// --estimate-from: the results of an earlier run whose times --dry-run's estimate uses;
    /// empty: the newest found (stored_results_dirs()).
    std::filesystem::path estimate_from;
    bool quick = false; ///< --quick: the file's `[quick]` form
    /// --yes: steps may drop tables on servers pglab did not create (existing_servers.hpp).
    bool yes = false;
    /// Fetches release binaries of a PostgreSQL version that is not installed (`pglab server
    /// fetch VERSION`: true when it is then in the cache), or with `only_look` tells whether it
    /// could; unset: a missing version is an error.
    std::function<bool(const std::string& version, bool only_look)> fetch_version;
};

/// How a plan ended; `pglab run` (src/cli) chooses the exit status of each.
enum class PlanOutcome {
    complete,    ///< every run ok (or --dry-run printed the plan)
    not_started, ///< a bad experiment or results directory: nothing ran
    failed,      ///< a run failed or timed out, a server could not be made, a line not written
    interrupted  ///< stopped by SIGINT/SIGTERM: --resume continues
};

/// How a plan ended, and where its results are.
struct RunOutcome {
    PlanOutcome status = PlanOutcome::not_started;
    std::filesystem::path results_dir; ///< empty when none was opened (a dry run, a refusal)
};

/// Runs the experiment (or with `dry_run` prints its plan).
RunOutcome run_experiment(const RunRequest& request);

} // namespace pglab::lab::run
