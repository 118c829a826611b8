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
#include <utility>

namespace pglab::lab::run {

namespace {

using util::ascii_lower;

const experiment::Setting* find_setting(const std::vector<experiment::Setting>& list,
                                        const std::string& name) {
    const std::string key = ascii_lower(name);
    for (const auto& s : list) {
        if (ascii_lower(s.name) == key) {
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
    opts.archive = s.archive;
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
        list += (list.empty() ? "" : ",") + util::doubling_quoted(ascii_lower(s.name), '\'');
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
        std::erase_if(state.applied, [&](const experiment::Setting& a) {
            return ascii_lower(a.name) == ascii_lower(s.name);
        });
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
    // A step's VERBOSE reports are a few per table; a DO block's RAISE INFO in a loop is not
    // kept past this many.
    constexpr std::size_t k_kept_info_notices = 10000;
    conn.on_notice([sink = m_notices](std::string_view message) {
        if (sink->log.empty()) {
            return;
        }
        std::ofstream out(sink->log, std::ios::app);
        out << "-- server: " << message;
        if (message.starts_with("INFO:") && sink->info.size() < k_kept_info_notices) {
            sink->info.emplace_back(message);
        }
    });
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

void ServerSet::end_run() {
    for (auto& [name, state] : m_servers) {
        state.sessions.clear(); // sessions live for one run
    }
    m_backends.clear();
}

std::optional<std::pair<std::string, std::string>> ServerSet::take_death(const std::string& name) {
    return std::exchange(m_servers.at(name).death, std::nullopt);
}

void ServerSet::mark_once_done(const std::string& server, std::size_t step,
                               std::string fingerprint) {
    m_servers.at(server).once_done[step] = std::move(fingerprint);
}

bool ServerSet::once_done(const std::string& server, std::size_t step,
                          const std::string& fingerprint) const {
    const ServerState& st = m_servers.at(server);
    const auto it = st.once_done.find(step);
    return (st.cluster || st.existing()) && it != st.once_done.end() && it->second == fingerprint;
}

pg::Connection* ServerSet::open_session(const std::string& server, const std::string& session) {
    auto& sessions = m_servers.at(server).sessions;
    const auto it = sessions.find(session);
    return it == sessions.end() ? nullptr : &it->second;
}

Status ServerSet::start(const std::string& server) {
    ServerState& state = m_servers.at(server);
    return state.cluster->running() ? Status{} : state.cluster->start_server();
}

Status ServerSet::stop(const std::string& server, server::ShutdownMode mode) {
    ServerState& state = m_servers.at(server);
    state.drop_connections();
    return state.cluster->stop_server(mode);
}

void ServerSet::remove_clusters() {
    for (auto& [name, state] : m_servers) {
        state.drop_connections();
        if (state.cluster) {
            (void)state.cluster->remove();
        }
    }
}

} // namespace pglab::lab::run
