// lab/probe: where a step's time goes on the server. pg_stat_activity is sampled every period
// from a connection of its own, each session counted under what it was doing at that instant (on
// a CPU, waiting for a lock, for a WAL flush, for its client...), and the counts are averaged over
// the samples: "wait.LWLock.WALWrite = 17.5" means 17.5 sessions waited there on average. With
// them, the machine's run queue (/proc/stat procs_running), to tell a wait for a CPU from work.
// Names and their meaning: docs/probes.md, "Wait events".
#pragma once

#include "lab/probe/probe.hpp"
#include "pg/conn_params.hpp"
#include "pg/connection.hpp"
#include "util/result.hpp"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace pglab::lab::probe {

/// What `count` sessions were doing at one sample (one row of wait_sampling_query()).
struct ActivityRow {
    std::string state;      ///< pg_stat_activity.state: "active", "idle", "idle in transaction"...
    std::string wait_type;  ///< wait_event_type, "" when the session waits for nothing
    std::string wait_event; ///< wait_event, "" with it
    int count = 0;
};

/// The query of one sample: the server's client backends, autovacuum and parallel workers (not
/// the sampler's own session nor pglab's progress one), grouped by state and wait event.
const char* wait_sampling_query();

/// The name a row is counted under: "wait.CPU" (active, waiting for nothing: on a CPU or ready
/// to run), "wait.<type>.<event>" (active and waiting: "wait.LWLock.WALWrite",
/// "wait.Lock.transactionid"), "wait.idle_in_transaction" (inside a transaction, waiting for its
/// client's next statement), "wait.idle" (between transactions), "wait.unknown" (no state).
std::string wait_name(const ActivityRow& row);

/// The name of the same wait on every version, for the waits PostgreSQL 19 renamed:
/// "wait.buffer_pin" (BufferPin.BufferPin up to 18, Buffer.BufferCleanup from 19) and
/// "wait.buffer_content" (LWLock.BufferContent up to 18; Buffer.BufferShared, BufferExclusive
/// and BufferShareExclusive from 19). Counted beside the server's own name, so that a claim can
/// compare 18 with 19. nullopt for every other row.
std::optional<std::string> wait_family_name(const ActivityRow& row);

/// The sums of the samples, and their averages.
class WaitTally {
public:
    /// One sample: the rows of the query and, when known, the machine's procs_running.
    void add(const std::vector<ActivityRow>& rows, std::optional<int> runnable);

    int samples() const { return m_samples; }

    /// Averages over the samples, by name: "wait.samples" (their number), "wait.sessions" (the
    /// sessions counted), each wait name seen, and "host.runnable" when every sample read it.
    /// Empty when there was no sample.
    Deltas averages() const;

private:
    int m_samples = 0;
    double m_sessions = 0;
    std::map<std::string, double> m_sums;
    double m_runnable = 0;
    int m_runnable_samples = 0;
};

/// The value of the "procs_running" line of a /proc/stat text: the processes running or ready
/// to run on the machine at that instant. nullopt when absent or malformed.
std::optional<int> parse_procs_running(std::string_view proc_stat);

/// pg_stat_activity sampled every `period` by a thread of its own, from start() to stop().
class WaitSampler {
public:
    WaitSampler(pg::ConnParams server, std::chrono::milliseconds period,
                std::filesystem::path proc_root = "/proc");
    ~WaitSampler();

    WaitSampler(const WaitSampler&) = delete;
    WaitSampler& operator=(const WaitSampler&) = delete;

    /// Connects and starts sampling (the first sample at once). Error when the connection fails.
    Status start();

    /// Stops; when the step was too short for any sample, takes one now. The averages
    /// (WaitTally::averages); empty when the server answered no sample (it went away).
    Deltas stop();

private:
    void loop();
    bool sample(); ///< false when the query failed (sampling ends)

    pg::ConnParams m_server;
    std::chrono::milliseconds m_period;
    std::filesystem::path m_proc_root;
    std::optional<pg::Connection> m_conn;
    bool m_failed = false; ///< the query failed once: no more samples
    WaitTally m_tally;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_quit = false;
    std::thread m_thread;
};

} // namespace pglab::lab::probe
