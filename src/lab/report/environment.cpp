// Environment of a results directory: plan.json, the runs' server objects, experiment.toml.
#include "lab/report/environment.hpp"

#include "lab/experiment/experiment_spec.hpp"
#include "util/machine_info.hpp"

#include <toml++/toml.h>

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
void read_initdb(const std::string& toml_text, Environment& env) {
    if (toml_text.empty()) {
        return;
    }
    toml::table doc;
    try {
        doc = toml::parse(toml_text);
    } catch (const toml::parse_error&) {
        return;
    }
    const toml::table* servers = doc["servers"].as_table();
    if (servers == nullptr) {
        return;
    }
    for (const auto& [name, node] : *servers) {
        const toml::table* server = node.as_table();
        if (server == nullptr) {
            continue;
        }
        std::string initdb;
        if (const auto* s = (*server)["initdb"].as_string()) {
            initdb = s->get();
        } else if (const auto* a = (*server)["initdb"].as_array()) {
            for (const auto& arg : *a) {
                if (const auto* text = arg.as_string()) {
                    initdb += (initdb.empty() ? "" : " ") + text->get();
                }
            }
        }
        if (!initdb.empty()) {
            server_named(env, std::string(name.str())).initdb = initdb;
        }
    }
}

void read_plan(const json& plan, Environment& env) {
    env.pglab_version = string_of(plan, "pglab_version");
    if (const auto it = plan.find("machine"); it != plan.end() && it->is_object()) {
        env.machine.cpu_model = string_of(*it, "cpu_model");
        env.machine.cores = static_cast<int>(int_of(*it, "cores").value_or(0));
        env.machine.memory_bytes = int_of(*it, "memory_bytes").value_or(0);
        env.machine.kernel = string_of(*it, "kernel");
        env.machine.recorded = true;
    }
    env.seed = int_of(plan, "seed");
    env.seed_source = string_of(plan, "seed_source");
    env.order = string_of(plan, "order");
    env.repeat = int_of(plan, "repeat");
    env.warmup = int_of(plan, "warmup");
    env.created_at = string_of(plan, "created_at");
    if (const auto it = plan.find("servers"); it != plan.end() && it->is_array()) {
        for (const auto& s : *it) {
            if (s.is_object()) {
                server_named(env, string_of(s, "name"));
            }
        }
    }
    if (const auto it = plan.find("runs"); it != plan.end() && it->is_array()) {
        env.planned_runs = static_cast<int64_t>(it->size());
    }
}

} // namespace

MachineInfo local_machine(const std::filesystem::path& proc_root) {
    const util::MachineInfo here = util::read_machine_info(proc_root);
    MachineInfo m;
    m.cpu_model = here.cpu_model;
    m.cores = here.cores;
    m.memory_bytes = here.memory_bytes;
    m.kernel = here.kernel;
    return m;
}

Environment gather_environment(const ResultsDir& results, const std::filesystem::path& proc_root) {
    Environment env;
    if (results.plan) {
        read_plan(*results.plan, env);
    }
    read_initdb(results.experiment_toml, env);
    if (!env.machine.recorded) {
        env.machine = local_machine(proc_root);
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
        for (const auto& r : (*results.plan)["runs"]) {
            const auto n = int_of(r, "run");
            if (n && finished.count(*n) == 0) {
                env.missing_runs.push_back(*n);
            }
        }
    }
    return env;
}

} // namespace pglab::lab::report
