// lab/run: creating, reconfiguring and connecting to the experiment's servers.
#include "lab/run/servers.hpp"

#include "lab/experiment/setting_names.hpp"
#include "lab/experiment/suggest.hpp"
#include "lab/server/installation.hpp"
#include "lab/server/memory_cgroup.hpp"
#include "lab/server/sync_delay.hpp"
#include "pg/conn_params.hpp"
#include "util/log.hpp"
#include "util/subprocess.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <thread>

namespace pglab::lab::run {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

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

const experiment::Setting* find_setting(const std::vector<experiment::Setting>& list,
                                        const std::string& name) {
    const std::string key = lower(name);
    for (const auto& s : list) {
        if (lower(s.name) == key) {
            return &s;
        }
    }
    return nullptr;
}

server::Settings to_server_settings(const std::vector<experiment::Setting>& settings) {
    server::Settings out;
    for (const auto& s : settings) {
        out.emplace_back(s.name, s.value.setting_text());
    }
    return out;
}

/// libpq `options` that set `settings` in a new session: "-c name=value ...", with the spaces and
/// backslashes of values escaped by a backslash (as libpq's options parsing wants).
std::string connection_options(const std::vector<experiment::Setting>& settings) {
    std::string out;
    for (const auto& s : settings) {
        std::string value;
        for (const char c : s.value.setting_text()) {
            if (c == ' ' || c == '\\') {
                value += '\\';
            }
            value += c;
        }
        out += fmt::format("{}-c {}={}", out.empty() ? "" : " ", s.name, value);
    }
    return out;
}

/// 32 random hex digits from /dev/urandom: the superuser password of a scram-sha-256 cluster.
Result<std::string> generate_password() {
    std::ifstream in("/dev/urandom", std::ios::binary);
    unsigned char bytes[16];
    if (!in.read(reinterpret_cast<char*>(bytes), sizeof bytes)) {
        return make_error("could not read /dev/urandom for a server password");
    }
    std::string out;
    for (const unsigned char b : bytes) {
        out += fmt::format("{:02x}", b);
    }
    return out;
}

bool is_uri(const std::string& conninfo) {
    return conninfo.rfind("postgresql://", 0) == 0 || conninfo.rfind("postgres://", 0) == 0;
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

} // namespace

pg::ConnParams conn_params(const server::ThrowawayCluster& cluster, const std::string& database) {
    pg::ConnParams p;
    p.host = cluster.socket_dir().string();
    p.port = std::to_string(cluster.port());
    p.user = cluster.user();
    p.dbname = database.empty() ? "postgres" : database;
    p.application_name = "pglab";
    p.password = cluster.password();
    return p;
}

ServerSet::ServerSet(const experiment::ExperimentSpec& spec) {
    for (const auto& s : spec.servers) {
        ServerState state;
        state.spec = &s;
        state.upstream = s.standby_of;
        m_servers.emplace(s.name, std::move(state));
    }
}

namespace {

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

} // namespace

std::vector<Error> ServerSet::check(const experiment::ExperimentSpec& spec) {
    std::vector<Error> problems;
    // From the file alone, before connecting to any existing server.
    for (std::size_t i = 0; i < spec.steps.size(); ++i) {
        if (spec.steps[i].type == experiment::StepType::promote) {
            if (auto st = check_promote(spec, spec.steps[i], i); !st) {
                problems.push_back(st.error());
            }
        }
    }
    for (const auto& s : spec.servers) {
        if (s.is_existing()) {
            if (problems.empty()) { // connects: only for a file that is right so far
                if (auto st = check_existing(spec, s); !st) {
                    problems.push_back(st.error());
                }
            }
            continue;
        }
        if (!s.standby_of.empty()) {
            const experiment::ServerSpec* primary = spec.find_server(s.standby_of);
            if (primary != nullptr && primary->is_existing()) {
                problems.push_back(error_at(
                    s.standby_of_pos,
                    fmt::format("server \"{}\": a standby of the existing server \"{}\" is not "
                                "supported",
                                s.name, s.standby_of),
                    "make the standby of a server pglab creates, or declare the existing standby "
                    "with its own conninfo"));
                continue;
            }
        }
        if (const Status emulation = check_emulation(s); !emulation) {
            problems.push_back(emulation.error());
            continue;
        }
        auto inst = installation_of(s);
        if (!inst) {
            // At the key that named the installation (`version`, `bin_dir`), else the table.
            Error e = inst.error();
            const experiment::SourcePos& pos =
                s.installation_pos.known() ? s.installation_pos : s.pos;
            if (pos.known()) {
                e.message = pos.to_string() + ": " + e.message;
            }
            problems.push_back(e);
            continue;
        }
        m_installations.emplace(s.name, *inst);
    }
    if (!problems.empty()) {
        return problems;
    }
    if (auto st = check_setting_names(spec); !st) {
        problems.push_back(st.error());
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
        const std::string& ctx = context[lower(ref.name)];
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

Status ServerSet::create(ServerState& state, const std::vector<experiment::Setting>& settings) {
    const experiment::ServerSpec& s = *state.spec;
    const server::ThrowawayCluster* primary = nullptr;
    if (!s.standby_of.empty()) {
        // The primary first (with its own settings when no run used it yet).
        ServerState& p = m_servers.at(s.standby_of);
        if (!p.cluster) {
            PGLAB_TRY(create(p, p.spec->settings));
        } else if (!p.cluster->running()) {
            PGLAB_TRY(p.cluster->start_server());
            p.drop_connections();
        }
        primary = &*p.cluster;
    }
    server::ClusterOptions opts;
    opts.bin_dir = m_installations.at(s.name).bin_dir;
    opts.settings = to_server_settings(settings);
    if (s.tcp) {
        opts.settings.insert(opts.settings.begin(), {"listen_addresses", "127.0.0.1"});
    }
    for (const auto& arg : s.initdb_options) {
        opts.initdb_args.push_back(arg.text);
    }
    opts.server_env = s.environment;
    if (s.sync_delay_us) {
        opts.sync_delay = std::chrono::microseconds(*s.sync_delay_us);
    }
    opts.memory_limit_bytes = s.memory_limit_bytes;
    if (s.auth == experiment::AuthMode::scram_sha_256) {
        PGLAB_TRY_ASSIGN(opts.password, generate_password());
    }
    if (!s.data_dir.empty()) {
        opts.parent_dir = s.data_dir;
    }
    if (m_log_path_for) {
        opts.log_path = m_log_path_for(s.name, state.clusters_created + 1);
    }
    if (primary != nullptr) {
        opts.password = primary->password(); // the superuser comes with the copy
    }
    auto cluster = primary != nullptr ? server::ThrowawayCluster::create_standby(opts, *primary)
                                      : server::ThrowawayCluster::create(opts);
    if (!cluster) {
        Error e = cluster.error();
        e.message = fmt::format("server \"{}\": {}", s.name, e.message);
        return make_error(e);
    }
    state.cluster.emplace(std::move(*cluster));
    ++state.clusters_created;
    state.upstream = s.standby_of;
    state.promoted = false;
    state.applied = settings;
    state.once_done.clear();
    state.drop_connections();
    return {};
}

std::optional<std::pair<std::string, std::string>>
ServerSet::reap_dead(const std::string& name, std::chrono::milliseconds wait) {
    ServerState& state = m_servers.at(name);
    if (!state.cluster) {
        return std::nullopt;
    }
    const auto ended = state.cluster->reap_if_exited(wait);
    if (!ended) {
        return std::nullopt;
    }
    state.drop_connections();
    state.death =
        std::pair{fmt::format("its postmaster {}", ended->describe()), state.cluster->log_tail(10)};
    return state.death;
}

namespace {

/// The settings of `wanted` whose value differs from (or is missing in) `applied`.
std::vector<experiment::Setting> changed_settings(const std::vector<experiment::Setting>& applied,
                                                  const std::vector<experiment::Setting>& wanted) {
    std::vector<experiment::Setting> changed;
    for (const auto& s : wanted) {
        const experiment::Setting* old = find_setting(applied, s.name);
        if (old == nullptr || old->value.setting_text() != s.value.setting_text()) {
            changed.push_back(s);
        }
    }
    return changed;
}

/// The settings' names, lower case, as a list of SQL string literals (quotes doubled): a name
/// never becomes SQL text.
std::string name_literals(const std::vector<experiment::Setting>& settings) {
    std::string list;
    for (const auto& s : settings) {
        list += (list.empty() ? "" : ",") + util::doubling_quoted(lower(s.name), '\'');
    }
    return list;
}

} // namespace

Status ServerSet::wait_for_reload(const std::string& name, const std::string& list,
                                  const std::map<std::string, std::string>& before) {
    ServerState& state = m_servers.at(name);
    // A reload is asynchronous: wait (at most 2 s) until every changed value is visible to a new
    // query; a value written differently but equal (64MB vs 65536kB) simply ends the wait.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (std::chrono::steady_clock::now() < deadline) {
        state.probe_conn.reset();
        PGLAB_TRY_ASSIGN(pg::Connection * conn, probe_connection(name));
        PGLAB_TRY_ASSIGN(const pg::QueryResult now,
                         conn->exec("SELECT lower(name), setting FROM pg_settings WHERE "
                                    "lower(name) IN ("
                                    + list + ")"));
        bool all = true;
        for (int i = 0; i < now.ntuples(); ++i) {
            const auto was = before.find(now.value(i, 0));
            if ((was == before.end() ? std::string() : was->second) == now.value(i, 1)) {
                all = false;
            }
        }
        if (all) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return {};
}

Status ServerSet::ensure(const std::string& name, const std::vector<experiment::Setting>& settings,
                         int& restarts_done) {
    ServerState& state = m_servers.at(name);
    if (state.existing()) {
        // Settings go with each new connection (checked to be user-settable before the plan).
        std::string options = connection_options(settings);
        if (options != state.options) {
            state.options = std::move(options);
            state.drop_connections();
        }
        state.applied = settings;
        return {};
    }
    if (!state.cluster) {
        return create(state, settings);
    }
    if (!state.cluster->running()) {
        PGLAB_TRY(state.cluster->start_server());
        state.drop_connections();
    }
    const std::vector<experiment::Setting> changed = changed_settings(state.applied, settings);
    if (changed.empty()) {
        return {};
    }
    PGLAB_TRY_ASSIGN(pg::Connection * conn, probe_connection(name));
    // Which of the changed settings need a restart, and their values now (to see a reload land).
    const std::string list = name_literals(changed);
    PGLAB_TRY_ASSIGN(const pg::QueryResult rows,
                     conn->exec("SELECT lower(name), context, setting FROM pg_settings WHERE "
                                "lower(name) IN ("
                                + list + ")"));
    bool needs_restart = false;
    std::map<std::string, std::string> before;
    for (int i = 0; i < rows.ntuples(); ++i) {
        if (std::string(rows.value(i, 1)) == "postmaster") {
            needs_restart = true;
        }
        before[rows.value(i, 0)] = rows.value(i, 2);
    }
    PGLAB_TRY(state.cluster->apply_settings(to_server_settings(changed)));
    for (const auto& s : changed) {
        std::erase_if(state.applied,
                      [&](const experiment::Setting& a) { return lower(a.name) == lower(s.name); });
        state.applied.push_back(s);
    }
    if (needs_restart) {
        state.drop_connections();
        PGLAB_TRY(state.cluster->restart());
        ++state.restarts;
        ++restarts_done;
        return {};
    }
    PGLAB_TRY(wait_for_reload(name, list, before));
    state.sessions.clear(); // sessions opened before the reload would keep old values until used
    return {};
}

Result<pg::Connection*> ServerSet::session(const std::string& server, const std::string& name,
                                           const std::string& database) {
    ServerState& state = m_servers.at(server);
    auto it = state.sessions.find(name);
    if (it != state.sessions.end() && !it->second.connection_bad()) {
        return &it->second;
    }
    PGLAB_TRY_ASSIGN(pg::ConnParams params, this->params(server, database));
    PGLAB_TRY_ASSIGN(pg::Connection conn, pg::Connection::connect(params));
    state.version = conn.parameter_status("server_version");
    state.version_num = conn.server_version();
    route_notices(conn);
    if (auto pid = conn.exec("SELECT pg_backend_pid()"); pid && pid->ntuples() == 1) {
        m_backends.add(params, std::atoi(pid->value(0, 0)));
    }
    auto [pos, inserted] = state.sessions.insert_or_assign(name, std::move(conn));
    (void)inserted;
    return &pos->second;
}

Result<pg::Connection*> ServerSet::probe_connection(const std::string& server) {
    ServerState& state = m_servers.at(server);
    if (state.probe_conn && !state.probe_conn->connection_bad()) {
        return &*state.probe_conn;
    }
    PGLAB_TRY_ASSIGN(pg::ConnParams params, this->params(server, ""));
    PGLAB_TRY_ASSIGN(pg::Connection conn, pg::Connection::connect(params));
    state.version = conn.parameter_status("server_version");
    state.version_num = conn.server_version();
    route_notices(conn);
    state.probe_conn.emplace(std::move(conn));
    return &*state.probe_conn;
}

void ServerSet::route_notices(pg::Connection& conn) const {
    conn.on_notice([log = m_notice_log](std::string_view message) {
        if (log->empty()) {
            return;
        }
        std::ofstream out(*log, std::ios::app);
        out << "-- server: " << message;
    });
}

void SessionBackends::add(const pg::ConnParams& params, int pid) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_backends.emplace_back(params, pid);
}

void SessionBackends::add_cluster(const pg::ConnParams& params) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    for (const auto& p : m_clusters) {
        if (p.host == params.host && p.port == params.port) {
            return;
        }
    }
    m_clusters.push_back(params);
}

void SessionBackends::clear() {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_backends.clear();
    m_clusters.clear();
}

void SessionBackends::cancel_all() {
    std::vector<std::pair<pg::ConnParams, int>> backends;
    std::vector<pg::ConnParams> clusters;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        backends = m_backends;
        clusters = m_clusters;
    }
    // A backend may end between the look and the signal; the server's WARNING that its pid "is
    // not a PostgreSQL backend process" then says nothing to the user, who pressed Ctrl-C.
    const auto quiet = [](pg::Connection& conn) { conn.on_notice([](std::string_view) {}); };
    for (pg::ConnParams params : clusters) {
        params.options.clear();
        if (auto conn = pg::Connection::connect(params)) {
            quiet(*conn);
            (void)conn->exec("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE "
                             "backend_type = 'client backend' AND pid <> pg_backend_pid()");
        }
    }
    // One connection per server (same conninfo, host and port), cancelling all of its backends.
    std::map<std::string, std::pair<pg::ConnParams, std::string>> by_server;
    for (const auto& [params, pid] : backends) {
        auto& entry = by_server[params.dbname + '\n' + params.host + '\n' + params.port];
        entry.first = params;
        entry.second += (entry.second.empty() ? "" : ",") + std::to_string(pid);
    }
    for (auto& [key, entry] : by_server) {
        pg::ConnParams params = entry.first;
        params.options.clear();
        auto conn = pg::Connection::connect(params);
        if (conn) {
            // Only the backends still there: a session that ended is not signalled.
            quiet(*conn);
            (void)conn->exec("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE pid = "
                             "ANY(ARRAY["
                             + entry.second + "])");
        }
    }
}

Result<pg::ConnParams> ServerSet::params(const std::string& server,
                                         const std::string& database) const {
    const ServerState& state = m_servers.at(server);
    if (state.existing()) {
        pg::ConnParams p;
        p.dbname = state.spec->conninfo;
        if (!database.empty()) {
            if (is_uri(p.dbname)) {
                return make_error(fmt::format(
                    "server \"{}\": a session's database cannot be added to a conninfo URI",
                    server));
            }
            std::string quoted;
            for (const char c : database) {
                if (c == '\'' || c == '\\') {
                    quoted += '\\';
                }
                quoted += c;
            }
            p.dbname += " dbname='" + quoted + "'"; // a later keyword wins
        }
        p.application_name = "pglab";
        p.options = state.options;
        return p;
    }
    if (!state.cluster || !state.cluster->running()) {
        return make_error(fmt::format("server \"{}\" is not running", server));
    }
    return conn_params(*state.cluster, database);
}

Status ServerSet::restart(const std::string& server, server::ShutdownMode mode) {
    ServerState& state = m_servers.at(server);
    if (state.existing()) {
        return make_error(fmt::format(
            "server \"{}\" is an existing server (conninfo): pglab does not restart it", server));
    }
    if (!state.cluster) {
        return make_error(fmt::format("server \"{}\" is not running", server));
    }
    state.drop_connections();
    PGLAB_TRY(state.cluster->restart(mode));
    ++state.restarts;
    return {};
}

namespace {

/// Why `state` cannot be promoted: an existing server, not (or no longer) a standby, not running.
Status check_promotable(const ServerState& state, const std::string& server) {
    if (state.existing()) {
        return make_error(
            Error(fmt::format("server \"{}\" is an existing server (conninfo): pglab does not "
                              "promote a server it did not create",
                              server))
                .with_hint("promote it yourself (SELECT pg_promote()), or declare the standby "
                           "with standby_of so that pglab creates it"));
    }
    if (state.upstream.empty()) {
        if (state.promoted) {
            return make_error(Error(fmt::format("server \"{}\" is no longer a standby: an "
                                                "earlier step of this run promoted it",
                                                server))
                                  .with_hint("promote a standby once per run"));
        }
        return make_error(Error(fmt::format("server \"{}\" is not a standby", server))
                              .with_hint("promote a server declared with standby_of"));
    }
    if (!state.cluster || !state.cluster->running()) {
        return make_error(Error(fmt::format("server \"{}\" is not running", server))
                              .with_hint("start it with a \"start\" step before promoting it"));
    }
    return {};
}

} // namespace

Status ServerSet::promote(const std::string& server) {
    ServerState& state = m_servers.at(server);
    PGLAB_TRY(check_promotable(state, server));
    // From here on the topology may differ from the file's: the next run remakes it.
    state.promoted = true;
    if (auto st = state.cluster->promote(); !st) {
        Error e = st.error();
        e.message = fmt::format("server \"{}\": {}", server, e.message);
        e.hint = "see the server's log (servers/" + server + "/ in the results directory)";
        return make_error(e);
    }
    state.upstream.clear();
    return wait_out_of_recovery(server);
}

Status ServerSet::wait_out_of_recovery(const std::string& server) {
    ServerState& state = m_servers.at(server);
    // pg_ctl has seen the control file say "in production"; queries may see the end of recovery
    // a moment later.
    constexpr std::chrono::seconds k_wait{60};
    const auto deadline = std::chrono::steady_clock::now() + k_wait;
    std::string last;
    for (;;) {
        auto conn = probe_connection(server);
        if (conn) {
            auto r = (*conn)->exec("SELECT pg_is_in_recovery()");
            if (r && r->ntuples() == 1 && std::string(r->value(0, 0)) == "f") {
                return {};
            }
            last = r ? "pg_is_in_recovery() is true" : r.error().message;
            if (!r) {
                state.probe_conn.reset();
            }
        } else {
            last = conn.error().message;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            return make_error(
                Error(fmt::format("server \"{}\" is still in recovery {} s after pg_ctl promote "
                                  "({})",
                                  server, k_wait.count(), last))
                    .with_detail(state.cluster->log_tail())
                    .with_hint("see the server's log (servers/" + server
                               + "/ in the results directory)"));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

bool ServerSet::has_standbys(const std::string& server) const {
    return std::any_of(m_servers.begin(), m_servers.end(),
                       [&](const auto& entry) { return entry.second.upstream == server; });
}

std::vector<std::string> ServerSet::servers_to_remake() const {
    std::vector<std::string> out;
    for (const auto& [name, state] : m_servers) {
        if (!state.cluster) {
            continue;
        }
        // Promoted itself, or downstream (in the file) of a server that was.
        for (const experiment::ServerSpec* s = state.spec; s != nullptr;) {
            if (m_servers.at(s->name).promoted) {
                out.push_back(name);
                break;
            }
            if (s->standby_of.empty()) {
                break;
            }
            s = m_servers.at(s->standby_of).spec;
        }
    }
    return out;
}

void ServerSet::discard(const std::string& server) {
    ServerState& state = m_servers.at(server);
    state.drop_connections();
    if (state.cluster) {
        if (const Status st = state.cluster->remove(); !st) {
            log::warning("server \"{}\": {}", server, st.error().message);
        }
        state.cluster.reset();
    }
    state.once_done.clear();
    state.upstream = state.spec->standby_of;
    state.promoted = false;
}

} // namespace pglab::lab::run
