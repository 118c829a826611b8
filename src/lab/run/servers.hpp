// lab/run: the servers of a running experiment: one throwaway cluster per `[servers.NAME]`,
// created on first use and kept across runs, reconfigured per cell (restarted only when a
// changed setting has context postmaster), with the run's SQL sessions and the probe connection.
// Internal to lab/run.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/run/session_backends.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "pg/connection.hpp"
#include "util/result.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::run {

/// One server of the experiment and what pglab keeps for it.
struct ServerState {
    const experiment::ServerSpec* spec = nullptr;
    std::optional<server::ThrowawayCluster> cluster;
    int clusters_created = 0;                       ///< 1 after the first creation
    int restarts = 0;                               ///< over the whole plan
    std::vector<experiment::Setting> applied;       ///< the settings the server runs with now
    std::map<std::string, pg::Connection> sessions; ///< by session name, for the current run
    std::optional<pg::Connection> probe_conn;
    std::map<std::size_t, std::string> once_done; ///< step index -> fingerprint (this cluster)
    std::string version;                          ///< server_version once connected
    int version_num = 0;
    /// The server it streams from now: the file's `standby_of` until a `promote` step makes it
    /// a primary, then empty.
    std::string upstream;
    /// A `promote` step made it a primary (or tried to): the topology is no longer the file's,
    /// so its cluster and those downstream of it are made anew before the next run.
    bool promoted = false;
    /// An existing server (conninfo): the `-c name=value` libpq options that apply its settings
    /// to every connection pglab opens (user-context settings only: see ServerSet::check).
    std::string options;
    /// Its postmaster was found ended on its own (ServerSet::reap_dead): how, and the end of its
    /// log; cleared by the run that records it and starts the server again.
    std::optional<std::pair<std::string, std::string>> death;

    bool existing() const { return spec->is_existing(); }

    /// An existing server is taken as running; a throwaway one runs when its cluster does.
    bool running() const { return existing() || (cluster && cluster->running()); }

    /// Drops every connection (after a restart, or at the end of a run for sessions).
    void drop_connections() {
        sessions.clear();
        probe_conn.reset();
    }
};

/// The servers of the experiment, by name.
class ServerSet {
public:
    explicit ServerSet(const experiment::ExperimentSpec& spec);

    /// Checks what can be checked before anything starts: installations exist (`version`,
    /// `bin_dir`), `promote` steps name standbys pglab creates, existing servers, and setting
    /// names are known to the installation (`postgres --describe-config`, i.e. pg_settings
    /// without a running server). Every problem found, each "file:line:column: message" at the
    /// key it is about; empty when none.
    /// A version in `unfetchable` (version -> why it could not be fetched) is said so, without
    /// the hint to fetch it.
    std::vector<Error> check(const experiment::ExperimentSpec& spec,
                             const std::map<std::string, std::string>& unfetchable = {});

    /// Makes sure `name` runs with `settings`: creates its cluster (with them) the first time,
    /// else applies what changed, restarting when a changed setting's pg_settings.context is
    /// postmaster (else reloading and waiting until the new values are visible). `restarted`
    /// tells whether it restarted.
    Status ensure(const std::string& name, const std::vector<experiment::Setting>& settings,
                  int& restarts_done);

    /// What pglab knows of `name`, to read: its state changes only through ServerSet.
    const ServerState& at(const std::string& name) const { return m_servers.at(name); }

    const std::map<std::string, ServerState>& all() const { return m_servers; }

    /// The end of a run: its sessions are closed and their backends forgotten.
    void end_run();

    /// How `name` was found dead before this run (ServerSet::reap_dead), taken: the run that
    /// records it starts the server again.
    std::optional<std::pair<std::string, std::string>> take_death(const std::string& name);

    /// A `once` step ran on `server`'s current cluster with `fingerprint` (its expanded fields).
    void mark_once_done(const std::string& server, std::size_t step, std::string fingerprint);

    /// Whether it did, with that fingerprint.
    bool once_done(const std::string& server, std::size_t step,
                   const std::string& fingerprint) const;

    /// The open connection of `session` on `server` this run; nullptr when it is not open (it
    /// was never opened, or a restart closed it).
    pg::Connection* open_session(const std::string& server, const std::string& session);

    /// A `start` step: starts the stopped cluster of `server` (nothing when it runs).
    Status start(const std::string& server);

    /// A `stop` step: closes pglab's connections to `server` and stops its cluster.
    Status stop(const std::string& server, server::ShutdownMode mode);

    /// Stops and removes every cluster (the end of the plan); the logs stay where keep_logs()
    /// put them.
    void remove_clusters();

    /// A connection of `session` (kept for the run) on `server`; `database` "" = postgres.
    Result<pg::Connection*> session(const std::string& server, const std::string& session,
                                    const std::string& database);

    /// The probe connection of `server`.
    Result<pg::Connection*> probe_connection(const std::string& server);

    /// The backends of the sessions opened so far (for cancelling them on SIGINT/SIGTERM).
    SessionBackends& backends() { return m_backends; }

    /// Restarts `server` (a `restart` step), counting it. Error for an existing server.
    Status restart(const std::string& server,
                   server::ShutdownMode mode = server::ShutdownMode::fast);

    /// Promotes the standby `server` (a `promote` step): `pg_ctl promote -w`, then waits until a
    /// query sees pg_is_in_recovery() false (at most 60 s). From then on it is a primary for
    /// pglab: has_standbys() no longer counts it for its former primary. Sessions stay open.
    /// Error, with a hint, for an existing server, a server that is not (or no longer) a standby,
    /// one that is not running, a failed pg_ctl or a server still in recovery after the wait.
    Status promote(const std::string& server);

    /// Whether some server streams from `server` now (the topology after any promotion).
    bool has_standbys(const std::string& server) const;

    /// The servers whose cluster must be made anew for the next run to start from the file's
    /// topology: every server a `promote` step promoted, and every standby downstream of it in
    /// the file (it follows the promoted server's new timeline, which its remade upstream will
    /// not have). Only servers that have a cluster.
    std::vector<std::string> servers_to_remake() const;

    /// Removes the cluster of `server` (stopping it); the next ensure() creates it anew, counting
    /// a new cluster. Its server log stays where keep_logs() put it.
    void discard(const std::string& server);

    /// Where the server log of cluster number `cluster` (from 1) of a server goes: a file of the
    /// results directory, so that it outlives the cluster and pglab (a SIGKILL included).
    void keep_logs(
        std::function<std::filesystem::path(const std::string& server, int cluster)> log_path_for) {
        m_log_path_for = std::move(log_path_for);
    }

    /// Where the server's notices (NOTICE, INFO, WARNING) on the sessions and probe connections
    /// go from now on: appended to `log` (the running step's log); an empty path drops them.
    /// Never the terminal, where they would mix with the progress lines. While a log is set, the
    /// INFO messages (VACUUM and ANALYZE VERBOSE reports) are also kept for take_info_notices().
    void notices_to(const std::filesystem::path& log) {
        m_notices->log = log;
        if (!log.empty()) {
            m_notices->info.clear();
        }
    }

    /// The INFO messages kept since notices_to() last set a log, taken.
    std::vector<std::string> take_info_notices() {
        std::vector<std::string> taken;
        taken.swap(m_notices->info);
        return taken;
    }

    /// When the postmaster of `server`'s cluster has ended on its own (killed, crashed): how,
    /// with the end of its log (also kept in its state's `death`), and the server is marked
    /// stopped (its connections dropped) so that ensure() starts it again. Nothing when it runs,
    /// was stopped by pglab, or is an existing server.
    /// `wait`: how long a postmaster that is ending may take to be seen ended (after a step
    /// failed, its death may still be under way).
    std::optional<std::pair<std::string, std::string>>
    reap_dead(const std::string& server, std::chrono::milliseconds wait = {});

    /// How to connect to `server` (its running cluster, or the conninfo of an existing server,
    /// with the settings of the cell as `-c` options) and `database` ("" = postgres, or the
    /// conninfo's for an existing server).
    Result<pg::ConnParams> params(const std::string& server, const std::string& database) const;

private:
    /// The setting names of the file, against each installation's.
    Status check_setting_names(const experiment::ExperimentSpec& spec);

    /// An existing server: connects (before anything starts) and checks its settings: known
    /// names, and a pg_settings.context that lets a connection set them (`user`, `superuser`,
    /// `backend`, `superuser-backend`); `postmaster`, `sighup` and `internal` ones are refused
    /// with the setting's file position.
    Status check_existing(const experiment::ExperimentSpec& spec,
                          const experiment::ServerSpec& server);

    Status create(ServerState& state, const std::vector<experiment::Setting>& settings);

    /// A `promote` step (index `index`) whose server is known from the file alone: that server
    /// must be a standby pglab creates.
    static Status check_promote(const experiment::ExperimentSpec& spec,
                                const experiment::Step& step, std::size_t index);

    /// After a reload of the settings named by `list` (SQL string literals): waits (at most 2 s)
    /// until a new query sees every value differ from `before` (name to setting); a value
    /// written differently but equal (64MB vs 65536kB) simply ends the wait.
    Status wait_for_reload(const std::string& name, const std::string& list,
                           const std::map<std::string, std::string>& before);

    /// After `pg_ctl promote`: waits until a query on `server` sees pg_is_in_recovery() false
    /// (at most 60 s).
    Status wait_out_of_recovery(const std::string& server);

    std::map<std::string, ServerState> m_servers;
    std::map<std::string, server::Installation> m_installations;
    SessionBackends m_backends;
    std::function<std::filesystem::path(const std::string&, int)> m_log_path_for;

    /// Where notices go: shared with every connection's notice handler (which may outlive a
    /// step).
    struct NoticeSink {
        std::filesystem::path log;
        std::vector<std::string> info; ///< at most k_kept_info_notices
    };

    std::shared_ptr<NoticeSink> m_notices = std::make_shared<NoticeSink>();

    /// Sends `conn`'s notices to m_notices.
    void route_notices(pg::Connection& conn) const;
};

/// Connection parameters for `cluster` and `database`.
pg::ConnParams conn_params(const server::ThrowawayCluster& cluster, const std::string& database);

} // namespace pglab::lab::run
