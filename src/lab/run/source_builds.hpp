// lab/run: the servers of an experiment built from a source tree (`source = "PATH"`), built
// before the first run as `pglab server build` builds them, or found built under their key.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/run/orchestrator.hpp"
#include "util/result.hpp"

namespace pglab::lab::run {

/// Builds each source tree the experiment names that is not built yet (each tree and options
/// once), saying so with the key and the build's progress; --dry-run only says it will, with
/// how long the builds in the cache took (`to_build`). Two servers whose trees, changes and
/// options give one key are one build: built once, with a warning that their comparison measures
/// noise. Error, at the `source` value, when a tree is no source tree or its build fails (naming
/// the build's log).
Status build_missing_sources(const experiment::ExperimentSpec& spec, const RunRequest& request,
                             bool& to_build);

} // namespace pglab::lab::run
