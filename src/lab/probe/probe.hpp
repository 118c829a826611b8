// Probes around a measured step: a Snapshot of the server's and the client's cumulative counters
// before and after it, and their differences. Names, units and versions: docs/probes.md.
#pragma once

#include "util/result.hpp"

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::pg {
class Connection;
}

namespace pglab::lab::probe {

/// What a snapshot may use besides the connection. Every field is optional: a probe whose input
/// is missing is left out of the snapshot, it never fails it.
struct ProbeContext {
    /// The postmaster's pid, for the server CPU probe (/proc/<pid>/stat and its children's).
    /// 0: taken from the parent of the connection's backend when the connection goes through a
    /// unix socket (the server is on this machine), else the server CPU probe is absent.
    pid_t postmaster_pid = 0;

    /// The server's data directory, for counting WAL segment files when pg_ls_waldir() is not
    /// allowed (not a superuser). Empty: only pg_ls_waldir().
    std::filesystem::path data_dir;

    /// The counters file of the sync-delay preload library the server runs with, for the sync.*
    /// probes. Empty: no sync.* values.
    std::filesystem::path sync_counts_file;

    /// The server's memory cgroup directory (v1 or v2), for server.memory_*. Empty: none.
    std::filesystem::path memory_cgroup_dir;

    /// Where /proc is (tests point it at a fixture directory).
    std::filesystem::path proc_root = "/proc";
};

/// Whether a value is a cumulative counter (its delta is after - before) or a level (the delta
/// reports the level after the step, e.g. the number of WAL segment files).
enum class Kind : uint8_t { counter, level };

/// One value a probe read.
struct Sample {
    std::string name; ///< stable, e.g. "wal.bytes", "db.xact_commit": docs/probes.md
    double value = 0;
    std::string unit; ///< "bytes", "s", "count", "blocks", "ms"
    Kind kind = Kind::counter;
};

/// Everything read at one instant. Values are in a fixed order (the order of docs/probes.md), a
/// probe that is unavailable on this server simply has no Sample.
struct Snapshot {
    int server_version_num = 0; ///< 150010 for 15.10
    pid_t postmaster_pid = 0;   ///< whose CPU times server.cpu_* hold; 0 when absent
    std::chrono::steady_clock::time_point taken_at{};
    std::vector<Sample> samples;
    /// The WAL insert position (also the counter wal.bytes), exact; none when it was not read
    /// (a standby in recovery).
    std::optional<unsigned long long> insert_lsn;
    /// The server's wal_segment_size in bytes; 0 when not read.
    unsigned long long wal_segment_size = 0;
    /// Why probes were left out ("pg_stat_wal: needs PostgreSQL 14"), for logs; not errors.
    std::vector<std::string> notes;

    /// The sample named `name`, or nullptr.
    const Sample* find(std::string_view name) const;
};

/// A difference between two snapshots.
struct Delta {
    std::string name;
    double value = 0;
    std::string unit;
};

/// In the order of the snapshots' samples, only names present in both; "elapsed_s" first.
using Deltas = std::vector<Delta>;

/// Reads every probe. The queries run in one transaction on `conn` (they count as one commit in
/// db.xact_commit of the next snapshot). Error only when the connection itself fails; a view,
/// column, function or /proc file that is missing or not permitted leaves its samples out.
/// `conn` must be idle, not inside a transaction block (the snapshot's COMMIT would end it).
Result<Snapshot> take_snapshot(pg::Connection& conn, const ProbeContext& context = {});

/// after - before for counters, after for levels; "elapsed_s" from taken_at. A counter that went
/// down (statistics reset, server restarted) and server.cpu_* of a different postmaster are left
/// out rather than reported wrong.
Deltas diff(const Snapshot& before, const Snapshot& after);

/// The delta named `name`, or nullopt.
std::optional<double> find(const Deltas& deltas, std::string_view name);

// --- pieces, public for tests ---

/// CPU times of one process from a /proc/<pid>/stat line, in clock ticks.
struct ProcStat {
    pid_t pid = 0;
    pid_t ppid = 0;
    unsigned long long utime = 0;
    unsigned long long stime = 0;
    long long cutime = 0; ///< of reaped (exited and waited-for) children
    long long cstime = 0;
};

/// Parses a /proc/<pid>/stat line ("1234 (postgres: wal writer) S 1200 ..."); the command may
/// hold spaces and parentheses. nullopt when malformed.
std::optional<ProcStat> parse_proc_stat(std::string_view line);

/// User and system CPU seconds of the postmaster and everything it started: its own times, its
/// reaped children's (exited backends, once the postmaster has waited for them), and each live
/// child's own and reaped times. nullopt when /proc/<postmaster_pid>/stat cannot be read.
struct CpuTimes {
    double user_s = 0;
    double system_s = 0;
};

std::optional<CpuTimes> server_cpu_times(pid_t postmaster_pid,
                                         const std::filesystem::path& proc_root = "/proc");

/// This process's CPU seconds (getrusage RUSAGE_SELF: every thread).
CpuTimes client_cpu_times();

/// The machine's CPU seconds from /proc/stat's first line ("cpu  user nice system idle iowait
/// irq softirq steal ..."): busy, every process's (user, nice, system; guest time is inside user;
/// interrupts left out, being mostly the measured work's own I/O), and steal, the time a virtual
/// machine's CPUs waited for the host.
struct HostCpu {
    double busy_s = 0;
    double steal_s = 0;
    int cpus = 0; ///< the "cpuN" lines of the same file: the CPUs busy_s is summed over
};

/// Parses that line; nullopt when it is not one.
std::optional<HostCpu> parse_host_cpu(std::string_view cpu_line);

/// The machine's, read from `proc_root`/stat; nullopt when it cannot be read.
std::optional<HostCpu> host_cpu_times(const std::filesystem::path& proc_root = "/proc");

/// A benchmark running beside this process: a pglab or pgbench process of the machine that is
/// neither this process nor one it started, and the CPU seconds it has used so far.
struct Neighbour {
    pid_t pid = 0;
    std::string command; ///< "pglab", "pgbench"
    double cpu_s = 0;    ///< its user and system CPU, with its reaped children's
};

/// The pglab and pgbench processes of `proc_root` other than `self` and its descendants.
std::vector<Neighbour> benchmark_neighbours(pid_t self,
                                            const std::filesystem::path& proc_root = "/proc");

/// What each of `after` used since `before` (the same pid in both), in CPU seconds: those that
/// used more than `least_s`, as "pglab (pid 1234): 12.5 s of CPU".
std::vector<std::string> neighbour_cpu_since(const std::vector<Neighbour>& before,
                                             const std::vector<Neighbour>& after, double least_s);

/// What the sync-delay library counted (preload/sync_counts.h), summed over the server's
/// processes: calls and milliseconds slept, in total and per kind.
struct SyncCounts {
    double calls = 0;
    double delayed_ms = 0;
    double fsync = 0;
    double fdatasync = 0;
    double sync_file_range = 0;
    double sync_write = 0; ///< writes on O_SYNC/O_DSYNC descriptors
};

/// Reads the library's counters file. nullopt when it is missing, short or not of this layout.
std::optional<SyncCounts> read_sync_counts(const std::filesystem::path& file);

/// Adds the sync.* samples (ProbeContext::sync_counts_file) and server.memory_* samples
/// (ProbeContext::memory_cgroup_dir) that the context allows; notes for the ones it cannot read.
void read_emulation(const ProbeContext& context, Snapshot& snapshot);

/// Parses an LSN "16/B374D848" into a byte position. nullopt when malformed.
std::optional<unsigned long long> parse_lsn(std::string_view text);

} // namespace pglab::lab::probe
