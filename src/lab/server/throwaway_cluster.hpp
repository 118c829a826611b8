// A PostgreSQL cluster that lives in a temporary directory for as long as its owner: initdb, a
// private unix socket (no TCP), start, reload, restart, stop, promotion of a standby, and removal
// on every exit path.
#pragma once

#include "lab/server/cluster_options.hpp"
#include "lab/server/installation.hpp"
#include "lab/server/memory_cgroup.hpp"
#include "util/result.hpp"
#include "util/subprocess.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pglab::lab::server {

/// A throwaway cluster. `create` makes the directory, runs initdb and starts the server; the
/// destructor (or `remove`) stops the server and deletes the directory. A fatal signal or exit()
/// does the same through the cleanup registry, so no server process is left behind.
///
/// Layout of the temporary directory `base_dir()` (`$TMPDIR/pglab-XXXXXX`): `data/` (PGDATA),
/// `socket/` (unix_socket_directories), `server.log` (the server's stdout and stderr),
/// `pglab.owner` (pid of the owning process: lets a later run remove what a SIGKILL left).
///
/// As root, initdb and the server run as ClusterOptions::os_user and the directory belongs to
/// it. Move-only. Not thread-safe: one owner drives it.
class ThrowawayCluster {
public:
    /// Makes and starts a cluster. Error when no installation is found or initdb or the start
    /// fails (the message carries the end of initdb's output or of the server log).
    static Result<ThrowawayCluster> create(ClusterOptions options);

    /// Makes and starts a streaming replica of `primary` (which must run): `pg_basebackup -R -X
    /// stream` of its data into a new temporary directory (the installation's pg_basebackup, else
    /// the newest installed one: it must accept the primary's version), the primary's settings
    /// with `options.settings` on top, its own port and socket. `options.password` should be the
    /// primary's (the superuser and its password come with the copy).
    static Result<ThrowawayCluster> create_standby(ClusterOptions options,
                                                   const ThrowawayCluster& primary);

    ThrowawayCluster(ThrowawayCluster&& other) noexcept;
    ThrowawayCluster& operator=(ThrowawayCluster&& other) noexcept;
    ThrowawayCluster(const ThrowawayCluster&) = delete;
    ThrowawayCluster& operator=(const ThrowawayCluster&) = delete;
    ~ThrowawayCluster();

    const Installation& installation() const { return m_installation; }

    const std::filesystem::path& bin_dir() const { return m_installation.bin_dir; }

    const std::filesystem::path& base_dir() const { return m_base_dir; }

    const std::filesystem::path& data_dir() const { return m_data_dir; }

    /// The unix-socket directory: what clients take as host (-h, PGHOST).
    const std::filesystem::path& socket_dir() const { return m_socket_dir; }

    /// The port: it names the socket file `.s.PGSQL.<port>`; TCP is off unless a setting
    /// turns listen_addresses on (the port was free on 127.0.0.1 when chosen).
    int port() const { return m_port; }

    /// Where it archives WAL segments (`<base_dir>/archive`); empty when it does not archive.
    std::filesystem::path archive_dir() const {
        return m_options.archive ? m_base_dir / "archive" : std::filesystem::path();
    }

    /// The superuser role to connect as.
    const std::string& user() const { return m_options.superuser; }

    /// Its password under scram-sha-256 authentication; empty under trust.
    const std::string& password() const { return m_options.password; }

    const std::filesystem::path& log_path() const { return m_log_path; }

    /// "host=<socket dir> port=<port> user=<superuser> dbname=<dbname>".
    std::string conninfo(const std::string& dbname = "postgres") const;

    /// PGHOST, PGPORT, PGUSER and PGDATABASE for a client (libpq, pgbench, pglab, psql), and
    /// PGPASSWORD under scram-sha-256 authentication.
    std::vector<std::pair<std::string, std::string>>
    client_env(const std::string& dbname = "postgres") const;

    /// The sync-delay counters file (ClusterOptions::sync_delay); empty without it.
    const std::filesystem::path& sync_counts_file() const { return m_sync_counts_file; }

    /// The server's memory cgroup (ClusterOptions::memory_limit_bytes); nullopt without it.
    const std::optional<MemoryCgroup>& memory_cgroup() const { return m_memory_cgroup; }

    /// The postmaster's pid; 0 when the server is stopped.
    pid_t server_pid() const { return m_server.pid(); }

    bool running() const { return m_server.pid() > 0; }

    /// When the postmaster has ended on its own (killed, crashed) since it was started, or ends
    /// within `wait`: reaps it and says how it ended; the cluster is then stopped (running()
    /// false) and start_server() starts it again on the same data. Nothing while it runs, or
    /// when pglab stopped it.
    std::optional<util::ExitStatus> reap_if_exited(std::chrono::milliseconds wait = {});

    /// Stops the server (`mode` as pg_ctl -m) and starts it again, keeping the data.
    Status restart(ShutdownMode mode = ShutdownMode::fast);

    /// Stops the server, keeping the directory: `mode` as pg_ctl -m; when the server is still
    /// up after the timeout, immediate shutdown, then SIGKILL.
    Status stop_server(ShutdownMode mode = ShutdownMode::fast);

    /// Starts a stopped server and waits until it accepts connections.
    Status start_server();

    /// Promotes a running standby to a primary: `pg_ctl promote -w` from the installation, as the
    /// user the server runs as, which waits (at most the cluster's timeout) until the control
    /// file says the server is in production. Queries may see pg_is_in_recovery() true for a
    /// moment longer: callers that need a writable server wait for it to turn false. Error, with
    /// pg_ctl's output, when the server is not running, is not a standby ("server is not in
    /// standby mode") or does not finish promoting in time.
    Status promote();

    /// Adds `settings` (replacing earlier values of the same names), rewrites the settings file
    /// and signals the server to reload it (SIGHUP: applied asynchronously, within moments).
    /// Settings that need a restart take effect on `restart()`. Error for port,
    /// unix_socket_directories and data_directory, which the cluster owns.
    Status apply_settings(const Settings& settings);

    /// Runs `sql` with psql (`-X -A -t -q -v ON_ERROR_STOP=1`) as the superuser and returns
    /// its output. Error with psql's stderr when it fails.
    Result<std::string> psql(const std::string& sql, const std::string& dbname = "postgres") const;

    /// `SHOW server_version_num` (150010 for 15.10).
    Result<int> server_version_num() const;

    /// The last `lines` lines of the server log.
    std::string log_tail(int lines = 20) const;

    /// Stops the server (immediate shutdown: nothing of the data is kept) and removes the
    /// directory. Also what the destructor does; idempotent.
    Status remove();

private:
    ThrowawayCluster() = default;

    Status make_directories();
    Status prepare_emulation();
    Status run_initdb();
    std::filesystem::path initdb_cache_entry() const;
    bool copy_from_initdb_cache(const std::filesystem::path& entry);
    void keep_in_initdb_cache(const std::filesystem::path& entry);
    Status run_basebackup(const ThrowawayCluster& primary);
    /// archive_mode and archive_command when the options ask for archiving (its directory made
    /// for the server's user), else neither: a standby does not keep its primary's.
    Status configure_archive();
    /// A standby of an archiving primary: restore_command reads the primary's archive (in
    /// pglab.conf from 12 on, in the recovery.conf pg_basebackup wrote before).
    Status restore_from(const ThrowawayCluster& primary);
    Status find_installation_and_user();
    Status write_settings();
    Status write_file_include();
    Status wait_until_ready();
    util::SpawnOptions server_spawn_options(std::vector<std::string> argv) const;

    ClusterOptions m_options;
    Installation m_installation;
    Settings m_settings; ///< pglab's own settings, then the caller's
    std::optional<util::RunAs> m_run_as;
    std::filesystem::path m_base_dir;
    std::filesystem::path m_data_dir;
    std::filesystem::path m_socket_dir;
    std::filesystem::path m_log_path;
    int m_port = 0;
    std::filesystem::path m_sync_library;     ///< the preload library; empty without sync_delay
    std::filesystem::path m_sync_counts_file; ///< its counters; empty without sync_delay
    std::optional<MemoryCgroup> m_memory_cgroup;
    int m_slot = -1; ///< cleanup registry slot; -1 when nothing to clean up
    util::ChildProcess m_server;
};

/// Removes `pglab-*` directories under `parent_dir` left by processes that no longer exist
/// (killed with SIGKILL, say), unless their server still runs. Best effort, errors ignored.
void remove_stale_clusters(const std::filesystem::path& parent_dir);

} // namespace pglab::lab::server
