// What a throwaway cluster is made of: which installation, settings, initdb options, and how the
// server runs (user, environment, location).
#pragma once

#include "lab/server/server_settings.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pglab::lab::server {

/// Whether the server gets SIGQUIT when the thread that started it ends (PR_SET_PDEATHSIG): a
/// backstop against servers outliving a process killed with SIGKILL. Say `no` when starting a
/// cluster from a thread that ends before the cluster should.
enum class StopWithParent { yes, no };

/// How a server is stopped, as pg_ctl's -m: smart waits for the sessions to end, fast
/// disconnects them and shuts down cleanly, immediate aborts (crash recovery at the next start).
enum class ShutdownMode { smart, fast, immediate };

/// How to make and run one throwaway cluster. Every field has a usable default.
struct ClusterOptions {
    /// The installation's bin directory; empty: `major` if set, else the newest installed one.
    std::filesystem::path bin_dir;
    std::optional<int> major;

    /// postgresql.conf settings, applied after pglab's own (listen_addresses, port, socket dir).
    Settings settings;

    /// initdb arguments after pglab's (`-A trust -U <superuser> -E UTF8 --locale=C --no-sync`).
    std::vector<std::string> initdb_args;

    /// Where initdb's output is kept for reuse; empty: initdb runs every time. A cluster made
    /// with the same installation, superuser, initdb arguments and OS user copies the kept data
    /// directory instead of running initdb again (a copy takes a twentieth of the time). Not used
    /// with a password, whose hash initdb would store. Test suites that start many clusters set
    /// it; a directory shared by concurrent processes is safe (entries appear by rename).
    std::filesystem::path initdb_cache_dir;

    /// The bootstrap superuser initdb creates; clients connect as this role.
    std::string superuser = "postgres";

    /// Empty: trust authentication (on the private socket). Else scram-sha-256 authentication
    /// everywhere, `superuser` having this password (given to initdb in a file removed right
    /// after); never logged.
    std::string password;

    /// Extra environment for the server process (LD_PRELOAD of a storage emulator, say).
    std::vector<std::pair<std::string, std::string>> server_env;

    /// Slower syncs: the server runs with the sync-delay preload library (LD_PRELOAD), which
    /// sleeps this long after each fsync, fdatasync, sync_file_range and O_SYNC/O_DSYNC write,
    /// and counts them in `<base_dir>/sync-counts` (zero: counts without delay). nullopt: the
    /// server runs as it is.
    std::optional<std::chrono::nanoseconds> sync_delay;

    /// The sync-delay library; empty: find_sync_delay_library().
    std::filesystem::path sync_delay_library;

    /// Less memory: the server runs in a memory cgroup of its own with this limit (bytes), page
    /// cache included. Root only; the creation fails, before initdb, where impossible.
    std::optional<std::uint64_t> memory_limit_bytes;

    /// Archive WAL: archive_mode on, each finished segment copied into the cluster's own
    /// archive directory (ThrowawayCluster::archive_dir()). A standby of an archiving primary
    /// restores from the primary's archive what streaming no longer has, whatever this says.
    bool archive = false;

    /// Where the cluster's temporary directory is made; empty: $TMPDIR, else /tmp.
    std::filesystem::path parent_dir;

    /// The server log (the server's stdout and stderr, appended); empty: `server.log` in the
    /// temporary directory (removed with it). A file elsewhere outlives the cluster, and the
    /// process that made it: what a SIGKILL interrupted stays readable.
    std::filesystem::path log_path;

    /// When running as root (PostgreSQL refuses to), the OS user that runs initdb and the server;
    /// empty: "postgres", else "nobody".
    std::string os_user;

    /// How long initdb, start and stop may take each.
    std::chrono::seconds timeout{120};

    StopWithParent stop_with_parent = StopWithParent::yes;
};

} // namespace pglab::lab::server
