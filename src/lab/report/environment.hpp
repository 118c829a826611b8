// Where and how the results were measured: pglab version, servers (version, settings the
// experiment sets, initdb options), machine, plan (seed, order), and how many runs finished.
#pragma once

#include "lab/report/results.hpp"
#include "util/machine_info.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pglab::lab::report {

struct ServerInfo {
    std::string name;
    std::set<std::string> versions; ///< server_version as reported
    std::set<std::string> bin_dirs;
    std::string initdb;                                    ///< from experiment.toml, "" if none
    std::map<std::string, std::set<std::string>> settings; ///< NAME -> values seen
    std::set<std::string> emulation; ///< "memory limit 768 MiB, each sync +2 ms": as run
    /// Built from this source tree (plan.json), with these options; "" when not built. Its
    /// build's key (commit, hash of the uncommitted changes, hash of the options) names the
    /// installation's directory.
    std::string source;
    std::vector<std::string> configure;
};

struct Environment {
    std::string pglab_version; ///< "" when not recorded
    std::string pglab_commit;  ///< the commit pglab was built from; "" when not recorded
    util::MachineInfo machine;
    /// True when the results recorded the machine; false when it is the one making the report.
    bool machine_recorded = false;
    std::vector<ServerInfo> servers;
    int64_t planned_runs = -1; ///< -1: unknown (no plan.json)
    int64_t finished_runs = 0;
    int64_t ok_runs = 0;
    int64_t failed_runs = 0;
    int64_t warmup_runs = 0;
    std::vector<int64_t> missing_runs; ///< planned runs without a line in results.jsonl
};

/// Gathers the environment. Machine facts come from plan.json's optional `machine` object
/// (`cpu_model`, `cores`, `memory_bytes`, `kernel`), else from `proc_root` and uname() of this
/// machine (machine_recorded = false).
Environment gather_environment(const ResultsDir& results,
                               const std::filesystem::path& proc_root = "/proc");

} // namespace pglab::lab::report
