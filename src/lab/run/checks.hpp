// lab/run: what `pglab run` and `pglab run --dry-run` check before any server starts, beyond
// the experiment file's own parse: installations, versions and bin_dir, promote targets, setting
// names and existing servers (ServerSet::check), and every init/bench step's options and scripts
// through the option parser the step uses, for every cell the step runs in. Internal to lab/run.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/plan/plan.hpp"
#include "lab/run/servers.hpp"
#include "util/result.hpp"

#include <map>
#include <string>

namespace pglab::lab::run {

/// Every problem found, as one Error (the first as message, the others in the trailer), in the
/// order of their positions in the experiment file; each starts with "file:line:column:".
/// `unfetchable`: the versions that could not be fetched, and why (fetch_missing_versions).
Status check_before_start(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                          ServerSet& servers,
                          const std::map<std::string, std::string>& unfetchable = {});

} // namespace pglab::lab::run
