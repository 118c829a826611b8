// Environment of a results directory: plan.json, the runs' server objects (and experiment.toml
// of older results).
#include "lab/report/environment.hpp"

#include "lab/experiment/experiment_spec.hpp"
#include "lab/store/bench_figures.hpp"
#include "util/machine_info.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <utility>
#include <vector>

namespace pglab::lab::report {

namespace {

ServerInfo& server_named(Environment& env, const std::string& name) {
    for (auto& s : env.servers) {
        if (s.name == name) {
            return s;
        }
    }
    env.servers.push_back(ServerInfo{name, {}, {}, {}, {}, {}, {}, {}});
    return env.servers.back();
}

/// The entry of the server `seen` names, with its version and installation added.
ServerInfo& add_seen(Environment& env, const store::ServerSeen& seen) {
    ServerInfo& server = server_named(env, seen.name);
    if (!seen.version.empty()) {
        server.versions.insert(seen.version);
    }
    if (!seen.bin_dir.empty()) {
        server.bin_dirs.insert(seen.bin_dir);
    }
    return server;
}

/// initdb options of each server: from the plan, or from the experiment file's copy in older
/// results.
void read_initdb(const ResultsDir& results, Environment& env) {
    std::vector<std::pair<std::string, std::vector<std::string>>> options; // server, arguments
    if (plan_has_claims(results)) {
        for (const store::PlanServer& server : results.plan->servers) {
            options.emplace_back(server.name, server.initdb_options);
        }
    } else if (results.experiment) {
        for (const experiment::ServerSpec& server : results.experiment->servers) {
            auto& [name, args] = options.emplace_back(server.name, std::vector<std::string>{});
            for (const experiment::TextField& arg : server.initdb_options) {
                args.push_back(arg.text);
            }
        }
    }
    for (const auto& [name, args] : options) {
        if (!args.empty()) {
            server_named(env, name).initdb = fmt::format("{}", fmt::join(args, " "));
        }
    }
}

void read_plan(const store::PlanRecord& plan, Environment& env) {
    env.pglab_version = plan.pglab_version;
    env.pglab_commit = plan.pglab_commit;
    if (plan.machine) {
        env.machine = *plan.machine;
        env.machine_recorded = true;
    }
    for (const store::PlanServer& s : plan.servers) {
        ServerInfo& server = server_named(env, s.name);
        server.source = s.source;
        server.configure = s.configure;
    }
    env.planned_runs = static_cast<int64_t>(plan.runs.size());
}

/// The servers a run used: its cell's server (version, installation, emulation, settings),
/// then every other one (standbys...) with its version and installation.
void read_servers(const store::RunRecord& run, Environment& env) {
    if (const store::ServerRecord& s = run.server; !s.seen.name.empty()) {
        ServerInfo& server = add_seen(env, s.seen);
        const std::string emulation = experiment::describe_emulation(
            s.memory_limit_bytes ? std::optional<std::uint64_t>(*s.memory_limit_bytes)
                                 : std::nullopt,
            s.sync_delay_us);
        if (!emulation.empty()) {
            server.emulation.insert(emulation);
        }
        for (const auto& [name, value] : s.settings) {
            server.settings[name].insert(value);
        }
    }
    for (const store::ServerSeen& other : run.servers) {
        if (!other.name.empty()) {
            add_seen(env, other);
        }
    }
}

} // namespace

Environment gather_environment(const ResultsDir& results, const std::filesystem::path& proc_root) {
    Environment env;
    if (results.plan) {
        read_plan(*results.plan, env);
    }
    read_initdb(results, env);
    if (!env.machine_recorded) {
        env.machine = util::read_machine_info(proc_root);
    }
    std::set<int64_t> finished;
    for (const auto& finished_run : results.runs) {
        const store::RunRecord& run = finished_run.record;
        finished.insert(static_cast<int64_t>(run.run));
        ++env.finished_runs;
        if (run.warmup) {
            ++env.warmup_runs;
        }
        if (run.status() == store::RunStatus::ok) {
            ++env.ok_runs;
        } else {
            ++env.failed_runs;
        }
        read_servers(run, env);
        if (env.pglab_version.empty()) {
            for (const store::StepRecord& step : run.steps) {
                const auto* bench = step.as<store::BenchStep>();
                if (const auto figures = bench ? store::bench_figures(*bench) : std::nullopt) {
                    env.pglab_version = figures->client_version;
                    break;
                }
            }
        }
    }
    if (results.plan && env.planned_runs >= 0) {
        for (const store::PlanRun& r : results.plan->runs) {
            const auto n = static_cast<int64_t>(r.run);
            if (finished.count(n) == 0) {
                env.missing_runs.push_back(n);
            }
        }
    }
    return env;
}

} // namespace pglab::lab::report
