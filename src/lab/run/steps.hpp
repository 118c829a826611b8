// lab/run: executing one step of a run against the experiment's servers. Internal to lab/run.
#pragma once

#include "lab/plan/run_values.hpp"
#include "lab/run/servers.hpp"
#include "lab/spec/experiment_spec.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <string>

namespace pglab::lab::run {

/// What a step did: `error` empty when it succeeded; `fields` are added to its step object.
struct StepOutcome {
    std::string error;
    nlohmann::json fields = nlohmann::json::object();
    bool interrupted = false; ///< a bench run stopped by SIGINT/SIGTERM
    bool wrote_log = false;
};

struct StepContext {
    const spec::ExperimentSpec& spec;
    ServerSet& servers;
    const plan::RunValues& values;
    std::string server;            ///< the server the step runs on
    std::filesystem::path log;     ///< the step's raw log
    const std::atomic<bool>& stop; ///< SIGINT/SIGTERM seen
    int& restarts;                 ///< restarts done in this run
};

StepOutcome execute_step(const spec::Step& step, StepContext& ctx);

} // namespace pglab::lab::run
