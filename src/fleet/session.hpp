// One process's side of a fleet run under MPI: the start agreement, heartbeats and progress
// notes to rank 0 while the workers run, and rank 0's collection of notes and results, its -P
// lines and its detection of lost processes. All MPI calls are made from the runner's thread.
#pragma once

#ifdef PGLAB_HAVE_MPI

#include "bench/run_config.hpp"
#include "bench/run_hooks.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fleet/wire.hpp"

namespace pglab::fleet {

/// Installs the SIGCONT handler through which mpirun's early warning is seen (fleet only).
void watch_for_job_end();

/// Whether that warning came.
bool job_ending();

class Session : public bench::RunHooks {
public:
    /// `processes[r]` describes process r (rank, host, clients, threads); `config` is this
    /// process's configuration (its share).
    Session(int rank, std::vector<bench::ProcessStats> processes, const bench::RunConfig& config);

    Result<usec_t> agree_start() override;
    void monitor(const std::function<stats::ProgressSnapshot()>& snapshot,
                 const std::function<bool()>& done) override;

    /// After the run: the other ranks send `mine` to rank 0; rank 0 collects every part (lost
    /// processes get their last heartbeat's counters) and returns them by rank.
    std::vector<Part> gather(Part mine);

    /// Processes that were lost, as "process R on HOST (pid P)" phrases (rank 0).
    const std::vector<std::string>& lost() const { return m_lost_names; }

private:
    struct Peer {
        stats::ProgressSnapshot last{};                ///< newest counters
        std::map<int64_t, stats::ProgressSnapshot> at; ///< progress notes by interval
        usec_t heard_us = 0; ///< when it last sent a note (on this clock), or its result came
        bool answered_warning = false; ///< sent a note or its result after mpirun's warning
        bool finished = false;         ///< its workers are done (`last` is final)
        bool lost = false;
        std::optional<Part> part;
    };

    void send_note(int kind, int64_t interval, const stats::ProgressSnapshot& s);
    void note(int from, int kind, int64_t interval, const stats::ProgressSnapshot& s,
              usec_t sent_us);
    void drain();
    void print_ready_lines();
    void detect_losses(usec_t now);
    void mark_lost(int rank, const std::string& why);
    /// Whether communication has ended because of a signal (see k_silent_at_signal_us); on the
    /// first call after the signal, rank 0 names the processes that had gone silent.
    bool offline();
    /// Whether mpirun has begun ending the job (its SIGCONT); the first time, asks the workers
    /// to stop.
    bool warned(usec_t now);
    void stop_everyone();
    bool stop_from_root();
    bool all_parts_in() const;

    int m_rank;
    int m_size;
    std::vector<bench::ProcessStats> m_processes;
    const bench::RunConfig& m_config;
    usec_t m_start = 0;
    usec_t m_step = 0;
    int64_t m_next_line = 1;
    bool m_offline = false;
    usec_t m_warned_at = 0; ///< when mpirun's early warning (SIGCONT) was seen
    bool m_stopped_all = false;
    std::vector<Peer> m_peers; ///< rank 0's view of every process, itself included
    std::vector<std::string> m_lost_names;
    stats::ProgressSnapshot m_line_last{}; ///< rank 0: the fleet's counters at the last line

public:
    usec_t decode_us = 0; ///< rank 0: time spent decoding the parts (the merge cost)
};

} // namespace pglab::fleet

#endif
