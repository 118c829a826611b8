// lab/run: the phases of `pglab run` before its first run: prepare (the experiment parsed, the
// seed chosen, the plan built, or for --resume the plan recorded), the versions it names fetched,
// the dry run printed, and the results directory opened (locked).
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/plan/plan.hpp"
#include "lab/run/orchestrator.hpp"
#include "lab/store/results_store.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <map>
#include <optional>

namespace pglab::lab::run {

/// The experiment and its plan, as the request gives them.
struct Prepared {
    std::filesystem::path experiment;
    experiment::ExperimentSpec spec;
    plan::Plan plan;
    const char* seed_source = "chosen";
    std::optional<store::ResultsStore> store; ///< --resume: the directory, locked
};

/// Phase "prepare": the results directory of --resume (locked), the experiment file parsed, the
/// seed chosen and the plan built (for --resume: the plan recorded there, unchanged).
Result<Prepared> prepare(const RunRequest& request);

/// --dry-run: the plan, its time (from the file and the runs of `request.estimate_from`, else the
/// newest earlier run found) and the emulated machines, one line per run. Error: the directory
/// of --estimate-from holds no run of the experiment.
Status print_dry_run(const Prepared& p, const RunRequest& request);

/// Phase "store": a new results directory (locked), or the resumed one.
Status open_store(const RunRequest& request, Prepared& p);

/// Every `version` the experiment names that no installation has is fetched (release binaries,
/// as `pglab server fetch` does), saying so; --dry-run only says it will be (`to_fetch`).
/// Returns the versions that cannot be fetched (no such release, or the fetch failed) and why,
/// for the checks before the start to name at their position with the file's other problems.
std::map<std::string, std::string> fetch_missing_versions(const experiment::ExperimentSpec& spec,
                                                          const RunRequest& request,
                                                          bool& to_fetch);

} // namespace pglab::lab::run
