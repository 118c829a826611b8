// lab/run: what a plan does to its servers.
#include "lab/run/existing_servers.hpp"

#include "lab/experiment/diagnostics.hpp"
#include "lab/plan/run_values.hpp"
#include "lab/server/installation.hpp"
#include "pg/conn_params.hpp"

#include <fmt/format.h>

#include <set>

namespace pglab::lab::run {

namespace {

/// "dbname=bench" as the server's conninfo gives it; "its default database" when it does not.
std::string database_of(const experiment::ServerSpec& server) {
    pg::ConnParams params;
    params.dbname = server.conninfo;
    if (auto env = pg::client_environment(params)) {
        for (const auto& [name, value] : *env) {
            if (name == "PGDATABASE" && !value.empty()) {
                return "dbname=" + value;
            }
        }
    }
    return "its default database";
}

std::string installation_origin(const experiment::ServerSpec& server) {
    if (!server.source.empty()) {
        return fmt::format("built from the source tree {} (pglab server build)", server.source);
    }
    const std::string wanted = !server.bin_dir.empty() ? server.bin_dir : server.version;
    // Neither given: the newest installation found, as the run takes it.
    auto found =
        wanted.empty() ? server::find_newest_installation() : server::resolve_installation(wanted);
    if (!found) {
        return server.version.empty()
                   ? "no PostgreSQL installed: " + found.error().message
                   : fmt::format("PostgreSQL {}, not installed: the run fetches it (pglab server "
                                 "fetch {})",
                                 server.version, server.version);
    }
    const std::string& origin = found->origin;
    const std::string where = wanted.empty()       ? "the newest installed: the file names none"
                              : origin == "system" ? "installed"
                              : origin == "cache"  ? "pglab's cache, fetched earlier"
                              : origin == "build"  ? "built by pglab server build"
                              : origin.empty()     ? "as given"
                                                   : origin;
    return fmt::format("PostgreSQL {} from {} ({})", found->version, found->bin_dir.string(),
                       where);
}

/// What `step` does on an existing server with database `db`; "" when nothing there.
std::string change_of(const experiment::Step& step, const std::string& db, bool& drops) {
    using experiment::StepType;
    drops = false;
    switch (step.type) {
    case StepType::init:
        drops = true;
        return fmt::format("drops and creates again pgbench_accounts, pgbench_branches, "
                           "pgbench_history and pgbench_tellers in {}",
                           db);
    case StepType::bench:
        return fmt::format("runs its scripts in {} (the built-in TPC-B-like ones write to the "
                           "pgbench_* tables)",
                           db);
    case StepType::sql:
    case StepType::timed_sql:
    case StepType::explain:
        return fmt::format("runs the statements of the file in {}", db);
    default:
        return {};
    }
}

} // namespace

std::vector<std::string> server_origins(const experiment::ExperimentSpec& spec) {
    std::vector<std::string> out;
    for (const auto& s : spec.servers) {
        if (s.is_existing()) {
            out.push_back(fmt::format("server {}: existing, conninfo \"{}\" (pglab neither starts "
                                      "nor stops it)",
                                      s.name, pg::redact_conninfo(s.conninfo)));
        } else {
            out.push_back(fmt::format("server {}: throwaway, {}", s.name, installation_origin(s)));
        }
    }
    return out;
}

std::vector<ExistingServerChange> existing_server_changes(const experiment::ExperimentSpec& spec,
                                                          const plan::Plan& plan) {
    std::vector<ExistingServerChange> out;
    for (std::size_t i = 0; i < spec.steps.size(); ++i) {
        std::set<std::string> servers;
        for (const plan::PlannedRun& run : plan.runs) {
            servers.insert(
                plan::RunValues(plan.cells[run.cell], run).server_of(spec, spec.steps[i]));
        }
        for (const std::string& name : servers) {
            const experiment::ServerSpec* server = spec.find_server(name);
            if (server == nullptr || !server->is_existing()) {
                continue;
            }
            bool drops = false;
            std::string what = change_of(spec.steps[i], database_of(*server), drops);
            if (!what.empty()) {
                out.push_back({i, name, std::move(what), drops});
            }
        }
    }
    return out;
}

Status check_destructive_steps(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                               bool yes) {
    if (yes || spec.destructive_ok) {
        return {};
    }
    experiment::Diagnostics diag;
    for (const ExistingServerChange& c : existing_server_changes(spec, plan)) {
        if (!c.drops) {
            continue;
        }
        const experiment::Step& step = spec.steps[c.step];
        diag.add(step.pos,
                 fmt::format("{} step \"{}\" {} on server \"{}\", which pglab did not create",
                             experiment::step_type_name(step.type),
                             step.name.empty() ? fmt::format("{}:{}", c.step,
                                                             experiment::step_type_name(step.type))
                                               : step.name,
                             c.what, c.server),
                 "If that is what you want, run again with --yes, or put destructive_ok = true "
                 "in the file; pglab run --dry-run lists what each step does there.");
    }
    if (diag.empty()) {
        return {};
    }
    return make_error(diag.to_error());
}

} // namespace pglab::lab::run
