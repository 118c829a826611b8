// lab/run: ServerSet's checks before anything starts (servers.hpp): installations, setting names
// (postgres --describe-config), promote steps, existing servers, emulated machines, each problem
// at its file position.
#include "lab/experiment/setting_names.hpp"
#include "lab/experiment/suggest.hpp"
#include "lab/run/servers.hpp"
#include "lab/server/installation.hpp"
#include "lab/server/memory_cgroup.hpp"
#include "lab/server/source_build.hpp"
#include "lab/server/sync_delay.hpp"
#include "util/subprocess.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <set>

namespace pglab::lab::run {

namespace {

using util::ascii_lower;

Error error_at(const experiment::SourcePos& pos, const std::string& message,
               const std::string& hint = {}) {
    Error e(pos.known() ? pos.to_string() + ": " + message : message);
    e.hint = hint;
    return e;
}

Result<server::Installation> installation_of(const experiment::ServerSpec& s) {
    if (!s.bin_dir.empty()) {
        return server::installation_at(s.bin_dir);
    }
    if (!s.source.empty()) {
        return server::built_installation(s.source, s.configure);
    }
    if (!s.version.empty()) {
        return server::resolve_installation(s.version);
    }
    return server::find_newest_installation();
}

/// Setting names the installation knows, from `postgres --describe-config` (run as the server
/// user when root: postgres refuses to run as root).
Result<std::vector<std::string>> describe_config(const server::Installation& inst) {
    util::SpawnOptions opts;
    opts.argv = {inst.tool("postgres").string(), "--describe-config"};
    if (::geteuid() == 0) {
        auto who = util::lookup_user("postgres");
        if (!who) {
            who = util::lookup_user("nobody");
        }
        PGLAB_TRY_ASSIGN(opts.run_as, std::move(who));
        opts.working_dir = "/";
    }
    opts.timeout = std::chrono::seconds(30);
    PGLAB_TRY_ASSIGN(const util::ProcessResult res, util::run_process(opts));
    if (!res.status.success()) {
        return make_error(fmt::format("{} --describe-config {}: {}", opts.argv[0],
                                      res.status.describe(), res.err));
    }
    std::vector<std::string> names;
    std::size_t pos = 0;
    while (pos < res.out.size()) {
        std::size_t nl = res.out.find('\n', pos);
        if (nl == std::string::npos) {
            nl = res.out.size();
        }
        const std::string line = res.out.substr(pos, nl - pos);
        const std::size_t tab = line.find('\t');
        if (tab != std::string::npos && tab > 0) {
            names.push_back(line.substr(0, tab));
        }
        pos = nl + 1;
    }
    return names;
}

/// Whether the matrix's settings apply to `server`: it is the default server or a value of the
/// matrix's `server` variable.
bool cells_use(const experiment::ExperimentSpec& spec, const std::string& server) {
    if (const auto* v = spec.matrix.find("server")) {
        for (const auto& value : v->values) {
            if (const auto* name = std::get_if<std::string>(&value.value);
                name && *name == server) {
                return true;
            }
        }
        return false;
    }
    return spec.default_server == server;
}

/// What a slower or smaller machine needs (sync_delay: the preload library; memory_limit: root
/// and a memory cgroup), refused with the file position before any server starts.
Status check_emulation(const experiment::ServerSpec& s) {
    if (s.sync_delay_us) {
        if (auto lib = server::find_sync_delay_library(); !lib) {
            Error e = lib.error();
            e.message = fmt::format("{}: server \"{}\": {}", s.pos.to_string(), s.name, e.message);
            return make_error(e);
        }
    }
    if (s.memory_limit_bytes) {
        if (const Status st = server::MemoryCgroup::check_available(); !st) {
            Error e = st.error();
            e.message = fmt::format("{}: server \"{}\": {}", s.memory_limit_pos.to_string(), s.name,
                                    e.message);
            return make_error(e);
        }
    }
    return {};
}

/// A standby of a server pglab does not create is refused: it cannot make one.
Status check_standby_of(const experiment::ExperimentSpec& spec, const experiment::ServerSpec& s) {
    if (s.standby_of.empty()) {
        return {};
    }
    const experiment::ServerSpec* primary = spec.find_server(s.standby_of);
    if (primary == nullptr || !primary->is_existing()) {
        return {};
    }
    return make_error(error_at(
        s.standby_of_pos,
        fmt::format("server \"{}\": a standby of the existing server \"{}\" is not supported",
                    s.name, s.standby_of),
        "make the standby of a server pglab creates, or declare the existing standby with its own "
        "conninfo"));
}

/// The installation a server pglab creates runs, or why it cannot be had, at the key that named
/// it (`version`, `bin_dir`), else at the server's table; a version that cannot be fetched says
/// why.
Result<server::Installation>
installation_for(const experiment::ServerSpec& s,
                 const std::map<std::string, std::string>& unfetchable) {
    auto inst = installation_of(s);
    if (inst) {
        return inst;
    }
    Error e = inst.error();
    if (const auto why = unfetchable.find(s.version);
        !s.version.empty() && why != unfetchable.end()) {
        e = Error(fmt::format("PostgreSQL {} is not installed and {}", s.version, why->second))
                .with_hint("name a release that exists (\"17\" takes the newest 17.x), an "
                           "installation's bin_dir, or a source tree; \"pglab server list\" shows "
                           "what is installed");
    }
    const experiment::SourcePos& pos = s.installation_pos.known() ? s.installation_pos : s.pos;
    if (pos.known()) {
        e.message = pos.to_string() + ": " + e.message;
    }
    return make_error(std::move(e));
}

} // namespace

std::vector<Error> ServerSet::check(const experiment::ExperimentSpec& spec,
                                    const std::map<std::string, std::string>& unfetchable) {
    std::vector<Error> problems;
    const auto problem = [&](const Status& st) {
        if (!st) {
            problems.push_back(st.error());
        }
        return !st;
    };
    // From the file alone, before connecting to any existing server.
    for (std::size_t i = 0; i < spec.steps.size(); ++i) {
        if (spec.steps[i].type == experiment::StepType::promote) {
            problem(check_promote(spec, spec.steps[i], i));
        }
    }
    for (const auto& s : spec.servers) {
        if (s.is_existing()) {
            if (problems.empty()) { // connects: only for a file that is right so far
                problem(check_existing(spec, s));
            }
            continue;
        }
        if (problem(check_standby_of(spec, s)) || problem(check_emulation(s))) {
            continue;
        }
        auto inst = installation_for(s, unfetchable);
        if (!inst) {
            problems.push_back(inst.error());
            continue;
        }
        m_installations.emplace(s.name, *inst);
    }
    if (problems.empty()) {
        problem(check_setting_names(spec));
    }
    return problems;
}

Status ServerSet::check_setting_names(const experiment::ExperimentSpec& spec) {
    // Setting names, per installation.
    const std::vector<experiment::SettingRef> refs = experiment::setting_refs(spec);
    if (refs.empty()) {
        return {};
    }
    std::map<std::string, std::vector<std::string>> known_by_bin;
    for (const auto& ref : refs) {
        const std::string server_name = ref.server.empty() ? spec.default_server : ref.server;
        std::vector<std::string> servers;
        if (ref.server.empty()) {
            for (const auto& s : spec.servers) {
                servers.push_back(s.name);
            }
        } else {
            servers.push_back(server_name);
        }
        for (const auto& name : servers) {
            auto it = m_installations.find(name);
            if (it == m_installations.end()) {
                continue;
            }
            const std::string bin = it->second.bin_dir.string();
            if (!known_by_bin.count(bin)) {
                PGLAB_TRY_ASSIGN(known_by_bin[bin], describe_config(it->second));
            }
            if (auto st = experiment::check_setting_names({ref}, known_by_bin[bin]); !st) {
                // --describe-config leaves out a few developer settings: ask a real server's
                // pg_settings before refusing the name.
                server::ClusterOptions opts;
                opts.bin_dir = it->second.bin_dir;
                auto cluster = server::ThrowawayCluster::create(opts);
                if (!cluster) {
                    return make_error(cluster.error());
                }
                auto names = cluster->psql("SELECT name FROM pg_settings");
                if (!names) {
                    return make_error(names.error());
                }
                std::vector<std::string> known;
                std::size_t pos = 0;
                while (pos < names->size()) {
                    std::size_t nl = names->find('\n', pos);
                    if (nl == std::string::npos) {
                        nl = names->size();
                    }
                    if (nl > pos) {
                        known.push_back(names->substr(pos, nl - pos));
                    }
                    pos = nl + 1;
                }
                known_by_bin[bin] = known;
                PGLAB_TRY(experiment::check_setting_names({ref}, known));
            }
        }
    }
    return {};
}

Status ServerSet::check_promote(const experiment::ExperimentSpec& spec,
                                const experiment::Step& step, std::size_t index) {
    // The servers the step may run on: its own, else the runs' (all values of a `server` matrix
    // variable, unless a `when` may leave some out: then the step's run-time check decides).
    std::vector<std::string> targets;
    if (!step.server.empty()) {
        targets.push_back(step.server);
    } else if (const auto* v = spec.matrix.find("server")) {
        if (!step.when) {
            for (const auto& value : v->values) {
                if (const auto* name = std::get_if<std::string>(&value.value)) {
                    targets.push_back(*name);
                }
            }
        }
    } else {
        targets.push_back(spec.default_server);
    }
    std::vector<std::string> standbys;
    for (const auto& s : spec.servers) {
        if (!s.standby_of.empty() && !s.is_existing()) {
            standbys.push_back(s.name);
        }
    }
    const std::string hint =
        standbys.empty()
            ? "declare the server to promote with standby_of = \"<its primary>\" so that pglab "
              "creates it as a streaming replica"
            : "promote a standby pglab creates: server = " + experiment::quoted_list(standbys);
    const std::string what = fmt::format("step {} (promote)", index + 1);
    for (const auto& name : targets) {
        const experiment::ServerSpec* s = spec.find_server(name);
        if (s == nullptr) {
            continue; // an undefined server is the spec's error, reported before this
        }
        if (s->is_existing()) {
            return make_error(error_at(
                step.pos,
                fmt::format("{}: server \"{}\" is an existing server (conninfo): pglab does not "
                            "promote a server it did not create",
                            what, name),
                hint));
        }
        if (s->standby_of.empty()) {
            return make_error(error_at(
                step.pos, fmt::format("{}: server \"{}\" is not a standby", what, name), hint));
        }
    }
    return {};
}

Status ServerSet::check_existing(const experiment::ExperimentSpec& spec,
                                 const experiment::ServerSpec& s) {
    pg::ConnParams params;
    params.dbname = s.conninfo;
    params.application_name = "pglab";
    auto conn = pg::Connection::connect(params);
    if (!conn) {
        return make_error(error_at(
            s.pos,
            fmt::format(
                "server \"{}\": could not connect to the existing server (conninfo \"{}\"): {}",
                s.name, pg::redact_conninfo(s.conninfo), conn.error().message),
            "check conninfo; give a password in PGPASSWORD or ~/.pgpass rather than in the file"));
    }
    std::vector<experiment::SettingRef> refs;
    for (auto& ref : experiment::setting_refs(spec)) {
        if (ref.server == s.name || (ref.server.empty() && cells_use(spec, s.name))) {
            refs.push_back(std::move(ref));
        }
    }
    if (refs.empty()) {
        return {};
    }
    PGLAB_TRY_ASSIGN(const pg::QueryResult rows,
                     conn->exec("SELECT lower(name), context FROM pg_settings"));
    std::vector<std::string> known;
    std::map<std::string, std::string> context;
    for (int i = 0; i < rows.ntuples(); ++i) {
        known.emplace_back(rows.value(i, 0));
        context[rows.value(i, 0)] = rows.value(i, 1);
    }
    PGLAB_TRY(experiment::check_setting_names(refs, known));
    for (const auto& ref : refs) {
        if (ref.name.find('.') != std::string::npos) {
            continue; // an extension's setting: a placeholder any session may set
        }
        const std::string& ctx = context[ascii_lower(ref.name)];
        if (ctx == "postmaster" || ctx == "internal") {
            return make_error(error_at(
                ref.pos,
                fmt::format("setting \"{}\" of existing server \"{}\" needs a restart "
                            "(pg_settings.context {}): pglab never restarts a server it did not "
                            "create",
                            ref.name, s.name, ctx),
                "set it on that server and restart it yourself, or let pglab create the server "
                "(remove conninfo)"));
        }
        if (ctx == "sighup") {
            return make_error(error_at(
                ref.pos,
                fmt::format("setting \"{}\" of existing server \"{}\" can only be changed in the "
                            "server's configuration (pg_settings.context sighup): pglab changes "
                            "no server-wide setting of a server it did not create",
                            ref.name, s.name),
                fmt::format("run ALTER SYSTEM SET {} = ...; SELECT pg_reload_conf(); on that "
                            "server yourself, or let pglab create the server (remove conninfo)",
                            ref.name)));
        }
    }
    return {};
}

} // namespace pglab::lab::run
