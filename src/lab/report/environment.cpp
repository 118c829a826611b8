// Environment of a results directory: plan.json, the runs' server objects, experiment.toml.
#include "lab/report/environment.hpp"

#include "lab/experiment/experiment_spec.hpp"
#include "util/machine_info.hpp"

// GCC 12 sees a "potential null pointer dereference" inside nlohmann::json's const iterators
// (iter_impl's constructor) wherever they are inlined: a false positive of its -O2 analysis.
#pragma GCC diagnostic ignored "-Wnull-dereference"

namespace pglab::lab::report {

namespace {

using nlohmann::json;

std::string string_of(const json& doc, const char* key) {
    const auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<int64_t> int_of(const json& doc, const char* key) {
    const auto it = doc.find(key);
    if (it == doc.end() || !it->is_number_integer()) {
        return std::nullopt;
    }
    return it->get<int64_t>();
}

ServerInfo& server_named(Environment& env, const std::string& name) {
    for (auto& s : env.servers) {
        if (s.name == name) {
            return s;
        }
    }
    env.servers.push_back(ServerInfo{name, {}, {}, {}, {}, {}});
    return env.servers.back();
}

/// initdb options of each server, from the experiment file's copy.
void read_initdb(const ResultsDir& results, Environment& env) {
    if (!results.experiment) {
        return;
    }
    for (const experiment::ServerSpec& server : results.experiment->servers) {
        std::string initdb;
        for (const experiment::TextField& arg : server.initdb_options) {
            initdb += (initdb.empty() ? "" : " ") + arg.text;
        }
        if (!initdb.empty()) {
            server_named(env, server.name).initdb = initdb;
        }
    }
}

void read_plan(const store::PlanRecord& plan, Environment& env) {
    env.pglab_version = plan.pglab_version;
    if (plan.machine) {
        env.machine = *plan.machine;
        env.machine_recorded = true;
    }
    env.seed = plan.seed;
    env.seed_source = plan.seed_source;
    env.order = plan.order;
    env.repeat = plan.repeat;
    env.warmup = plan.warmup;
    env.created_at = plan.created_at;
    for (const store::PlanServer& s : plan.servers) {
        server_named(env, s.name);
    }
    env.planned_runs = static_cast<int64_t>(plan.runs.size());
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
    for (const auto& run : results.runs) {
        finished.insert(run.run);
        ++env.finished_runs;
        if (run.warmup) {
            ++env.warmup_runs;
        }
        if (run.ok) {
            ++env.ok_runs;
        } else {
            ++env.failed_runs;
        }
        const auto s = run.doc.find("server");
        if (s != run.doc.end() && s->is_object()) {
            ServerInfo& server = server_named(env, string_of(*s, "name"));
            if (const std::string v = string_of(*s, "version"); !v.empty()) {
                server.versions.insert(v);
            }
            if (const std::string b = string_of(*s, "bin_dir"); !b.empty()) {
                server.bin_dirs.insert(b);
            }
            const auto memory = int_of(*s, "memory_limit_bytes");
            const std::string emulation = experiment::describe_emulation(
                memory ? std::optional<std::uint64_t>(*memory) : std::nullopt,
                int_of(*s, "sync_delay_us"));
            if (!emulation.empty()) {
                server.emulation.insert(emulation);
            }
            if (s->contains("settings") && s->at("settings").is_object()) {
                const json& settings = s->at("settings");
                for (const auto& item : settings.items()) {
                    server.settings[item.key()].insert(value_text(item.value()));
                }
            }
        }
        // Every other server the run used (standbys...): its version and installation.
        for (const auto& other : run.doc.value("servers", json::array())) {
            if (!other.is_object() || string_of(other, "name").empty()) {
                continue;
            }
            ServerInfo& server = server_named(env, string_of(other, "name"));
            if (const std::string v = string_of(other, "version"); !v.empty()) {
                server.versions.insert(v);
            }
            if (const std::string b = string_of(other, "bin_dir"); !b.empty()) {
                server.bin_dirs.insert(b);
            }
        }
        if (env.pglab_version.empty()) {
            for (const auto& step : run.doc.value("steps", json::array())) {
                if (step.is_object() && step.contains("bench") && step["bench"].is_object()) {
                    env.pglab_version = string_of(step["bench"], "client_version");
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
