#include "fleet/session.hpp"

#include "bench/run.hpp"

#ifdef PGLAB_HAVE_MPI

#include "util/log.hpp"
#include "util/stop_signal.hpp"

#include <fmt/format.h>

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>
#include <type_traits>

#include "fleet/merge.hpp"

namespace pglab::fleet {

namespace {

constexpr int k_tag_note = 1;
constexpr int k_tag_part = 2;
constexpr int k_tag_stop = 3;

/// A heartbeat every 200 ms keeps rank 0's copy of the counters at most that old.
constexpr usec_t k_heartbeat_us = 200000;
/// A process silent this long (without mpirun's help, say a host cut off) is lost.
constexpr usec_t k_silence_us = 3000000;
/// When a process dies, Open MPI's mpirun (4.1) SIGTERMs the others about 1 s later and
/// SIGKILLs them 1 s after that; from the SIGTERM on, any MPI call may end the caller (the
/// runtime aborts it on the job's abort event). So a signal ends all communication: rank 0
/// reports from what it has, and a process silent for this long when the signal came is the one
/// that died (the others sent a heartbeat every 200 ms until then).
constexpr usec_t k_silent_at_signal_us = 600000;
/// The agreed start is this far after rank 0 decides it: time for the broadcast to arrive.
constexpr usec_t k_start_margin_us = 100000;

/// When a process dies, mpirun's daemons first SIGCONT the others (Open MPI 4.1: at once), then
/// SIGTERM them about 1 s later. The SIGCONT is the early warning: communication still works, so
/// the survivors stop and send their results, and the dead process is the one that stays silent.
constexpr usec_t k_silent_after_warning_us = 300000;
/// Rank 0 waits at most this long after the warning for the survivors' results, then reports.
constexpr usec_t k_results_after_warning_us = 700000;

std::atomic<bool> g_job_ending{false};

void on_sigcont(int) {
    g_job_ending.store(true);
}

enum NoteKind : int32_t { heartbeat, progress, finished };

/// The fixed-size message of every heartbeat and progress note (raw bytes: same build).
struct Note {
    int32_t kind = heartbeat;
    int32_t rank = 0;
    /// 1 when the sender had seen mpirun's warning (SIGCONT) when it sent the note: proof that it
    /// lives after a loss, however late rank 0 reads its queue.
    int32_t after_warning = 0;
    int64_t interval = 0;
    /// When it was sent, from the agreed start (the sender's clock; every process aligned its
    /// start to the same wall-clock instant): notes read late still say when their sender lived.
    int64_t sent_since_start_us = 0;
    stats::ProgressSnapshot snapshot{};
};

static_assert(std::is_trivially_copyable_v<Note>);

void sleep_us(usec_t us) {
    std::this_thread::sleep_for(std::chrono::microseconds(us));
}

/// Waits for a non-blocking collective unless a stop is requested first (false then).
bool wait_or_stop(MPI_Request& request) {
    for (;;) {
        int flag = 0;
        MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
        if (flag != 0) {
            return true;
        }
        if (util::stop_requested()) {
            return false;
        }
        sleep_us(1000);
    }
}

void add(stats::ProgressSnapshot& into, const stats::ProgressSnapshot& s) {
    into.count += s.count;
    into.latency_sum_us += s.latency_sum_us;
    into.latency_sum2_us += s.latency_sum2_us;
    into.failures += s.failures;
    into.lag_sum_us += s.lag_sum_us;
    into.skipped += s.skipped;
    into.retried += s.retried;
    into.retries += s.retries;
}

} // namespace

void watch_for_job_end() {
    struct sigaction sa {};

    sa.sa_handler = on_sigcont;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGCONT, &sa, nullptr);
}

bool job_ending() {
    return g_job_ending.load();
}

bool Session::warned(usec_t now) {
    if (m_warned_at == 0 && g_job_ending.load()) {
        m_warned_at = now;
        util::request_deadline_stop();
    }
    return m_warned_at != 0;
}

Session::Session(int rank, std::vector<bench::ProcessStats> processes,
                 const bench::RunConfig& config)
    : m_rank(rank), m_size(static_cast<int>(processes.size())), m_processes(std::move(processes)),
      m_config(config), m_step(static_cast<usec_t>(config.progress_s) * 1000000),
      m_peers(static_cast<size_t>(m_size)) {}

Result<usec_t> Session::agree_start() {
    MPI_Request request;
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    if (!wait_or_stop(request)) {
        return make_error("interrupted while waiting for the other processes to start");
    }
    int64_t start_wall = m_rank == 0 ? wall_now_us() + k_start_margin_us : 0;
    MPI_Ibcast(&start_wall, 1, MPI_INT64_T, 0, MPI_COMM_WORLD, &request);
    if (!wait_or_stop(request)) {
        return make_error("interrupted while waiting for the other processes to start");
    }
    m_start = now_us() + (start_wall - wall_now_us());
    if (const usec_t now = now_us(); m_start > now) {
        sleep_us(m_start - now);
    }
    for (Peer& p : m_peers) {
        p.heard_us = now_us();
    }
    m_line_last.time_us = m_start;
    return m_start;
}

void Session::send_note(int kind, int64_t interval, const stats::ProgressSnapshot& s) {
    if (m_rank == 0) {
        note(0, kind, interval, s, now_us());
        return;
    }
    Note n;
    n.kind = kind;
    n.rank = m_rank;
    n.after_warning = m_warned_at != 0 ? 1 : 0;
    n.interval = interval;
    n.sent_since_start_us = now_us() - m_start;
    n.snapshot = s;
    MPI_Send(&n, sizeof n, MPI_BYTE, 0, k_tag_note, MPI_COMM_WORLD);
}

void Session::note(int from, int kind, int64_t interval, const stats::ProgressSnapshot& s,
                   usec_t sent_us) {
    Peer& p = m_peers[static_cast<size_t>(from)];
    p.heard_us = std::max(p.heard_us, std::min(sent_us, now_us()));
    p.last = s;
    if (kind == progress) {
        p.at[interval] = s;
    } else if (kind == finished) {
        p.finished = true;
    }
}

void Session::drain() {
    for (;;) {
        int flag = 0;
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
        if (flag == 0) {
            return;
        }
        const int from = status.MPI_SOURCE;
        if (status.MPI_TAG == k_tag_note) {
            Note n;
            MPI_Recv(&n, sizeof n, MPI_BYTE, from, k_tag_note, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            note(from, n.kind, n.interval, n.snapshot, m_start + n.sent_since_start_us);
            if (n.after_warning != 0) {
                m_peers[static_cast<size_t>(from)].answered_warning = true;
            }
        } else if (status.MPI_TAG == k_tag_part) {
            int size = 0;
            MPI_Get_count(&status, MPI_CHAR, &size);
            std::string text(static_cast<size_t>(size), '\0');
            MPI_Recv(text.data(), size, MPI_CHAR, from, k_tag_part, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            const usec_t t0 = now_us();
            auto part = decode_part(text);
            decode_us += now_us() - t0;
            Peer& p = m_peers[static_cast<size_t>(from)];
            p.heard_us = now_us();
            p.answered_warning = true; // a result is proof of life too
            if (!part) {
                log::error("{}", part.error().message);
                mark_lost(from, "its result could not be read");
            } else if (!p.lost) {
                p.finished = true;
                p.part = std::move(*part);
            }
        } else { // nothing else is sent to rank 0; take it off the queue
            int size = 0;
            MPI_Get_count(&status, MPI_BYTE, &size);
            std::string junk(static_cast<size_t>(std::max(size, 1)), '\0');
            MPI_Recv(junk.data(), size, MPI_BYTE, from, status.MPI_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        }
    }
}

void Session::print_ready_lines() {
    if (m_step <= 0 || m_config.quiet) {
        return;
    }
    const stats::ProgressOptions opts = bench::progress_options(m_config, m_start);
    for (;;) {
        // Interval k is printable once every process reached its end, or finished before it
        // (its final counters then stand for it), and at least one process reached it.
        stats::ProgressSnapshot sum;
        bool reached = false;
        for (const Peer& p : m_peers) {
            if (auto it = p.at.find(m_next_line); it != p.at.end()) {
                add(sum, it->second);
                reached = true;
            } else if (p.finished || p.lost) {
                add(sum, p.last);
            } else {
                return;
            }
        }
        if (!reached) {
            return;
        }
        sum.time_us = m_start + m_next_line * m_step;
        const std::string line = stats::format_progress_line(m_line_last, sum, opts);
        std::fputs(line.c_str(), stderr);
        m_line_last = sum;
        ++m_next_line;
    }
}

void Session::mark_lost(int rank, const std::string& why) {
    Peer& p = m_peers[static_cast<size_t>(rank)];
    if (p.lost || p.part) {
        return;
    }
    p.lost = true;
    const bench::ProcessStats& ps = m_processes[static_cast<size_t>(rank)];
    m_lost_names.push_back(fmt::format("process {} on {}: {}", rank, ps.host, why));
    stop_everyone();
}

void Session::stop_everyone() {
    if (m_stopped_all) {
        return;
    }
    m_stopped_all = true;
    util::request_deadline_stop();
    for (int r = 1; r < m_size && !m_offline; ++r) {
        if (!m_peers[static_cast<size_t>(r)].lost) {
            static int one = 1;
            MPI_Request request;
            MPI_Isend(&one, 1, MPI_INT, r, k_tag_stop, MPI_COMM_WORLD, &request);
            MPI_Request_free(&request);
        }
    }
}

bool Session::offline() {
    if (!m_offline && util::stop_signalled()) {
        m_offline = true;
        if (m_rank == 0) {
            const usec_t now = now_us();
            for (int r = 1; r < m_size; ++r) {
                const Peer& p = m_peers[static_cast<size_t>(r)];
                if (!p.finished && !p.part && now - p.heard_us > k_silent_at_signal_us) {
                    mark_lost(r, fmt::format("it stopped reporting {:.1f} s before the job was "
                                             "ended by a signal (killed, or its host failed)",
                                             0.000001 * static_cast<double>(now - p.heard_us))
                                     .c_str());
                }
            }
        }
    }
    return m_offline;
}

void Session::detect_losses(usec_t now) {
    if (warned(now) && now - m_warned_at > k_silent_after_warning_us) {
        for (int r = 1; r < m_size; ++r) {
            const Peer& p = m_peers[static_cast<size_t>(r)];
            // Its notes sent before the warning may be read after it (rank 0 busy on a loaded
            // machine): only a note it sent after the warning shows that it lives.
            if (!p.finished && !p.part && !p.answered_warning) {
                mark_lost(r, "it fell silent as mpirun began ending the job (killed, or its "
                             "host failed)");
            }
        }
    }
    for (int r = 1; r < m_size; ++r) {
        const Peer& p = m_peers[static_cast<size_t>(r)];
        if (p.lost || p.part) {
            continue;
        }
        if (!p.finished && now - p.heard_us > k_silence_us) {
            mark_lost(r, "it sent nothing for 3 s");
        }
    }
}

bool Session::stop_from_root() {
    int flag = 0;
    MPI_Iprobe(0, k_tag_stop, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    if (flag == 0) {
        return false;
    }
    int one = 0;
    MPI_Recv(&one, 1, MPI_INT, 0, k_tag_stop, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return true;
}

void Session::monitor(const std::function<stats::ProgressSnapshot()>& snapshot,
                      const std::function<bool()>& done) {
    const usec_t end =
        m_config.duration_s > 0 ? m_start + static_cast<usec_t>(m_config.duration_s) * 1000000 : 0;
    int64_t next_interval = 1;
    usec_t next_heartbeat = 0;
    // Progress notes for every interval boundary passed; with -T the boundary at the end waits
    // for the final counters (transactions in flight at the end count, as in the total).
    auto progress_notes = [&](usec_t now, bool final) {
        while (m_step > 0) {
            const usec_t boundary = m_start + next_interval * m_step;
            if (boundary > now || (!final && end != 0 && boundary >= end)) {
                return;
            }
            stats::ProgressSnapshot s = snapshot();
            s.time_us = boundary;
            send_note(progress, next_interval, s);
            ++next_interval;
        }
    };
    while (!done()) {
        const usec_t now = now_us();
        if (offline()) {
            sleep_us(10000);
            continue;
        }
        progress_notes(now, false);
        if (m_warned_at == 0 && warned(now)) {
            next_heartbeat = now; // tell rank 0 at once that this process lives
        }
        if (now >= next_heartbeat) {
            send_note(heartbeat, 0, snapshot());
            next_heartbeat = now + k_heartbeat_us;
        }
        if (m_rank == 0) {
            drain();
            print_ready_lines();
            detect_losses(now);
        } else if (stop_from_root()) {
            util::request_deadline_stop();
        }
        sleep_us(10000);
    }
    if (offline()) {
        if (m_rank == 0) {
            m_peers[0].last = snapshot();
            m_peers[0].finished = true;
        }
        return;
    }
    progress_notes(now_us(), true);
    stats::ProgressSnapshot last = snapshot();
    send_note(finished, 0, last);
    if (m_rank == 0) {
        drain();
        print_ready_lines();
    }
}

bool Session::all_parts_in() const {
    for (const Peer& p : m_peers) {
        if (!p.lost && !p.part) {
            return false;
        }
    }
    return true;
}

std::vector<Part> Session::gather(Part mine) {
    if (m_rank != 0) {
        if (offline()) {
            return {};
        }
        const std::string text = encode_part(mine);
        MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, k_tag_part,
                 MPI_COMM_WORLD);
        return {};
    }
    m_peers[0].part = std::move(mine);
    while (!offline() && !all_parts_in()
           && !(warned(now_us()) && now_us() - m_warned_at > k_results_after_warning_us)) {
        drain();
        print_ready_lines();
        detect_losses(now_us());
        sleep_us(2000);
    }
    if (!m_offline) {
        print_ready_lines();
    }
    std::vector<Part> parts;
    const size_t scripts = m_peers[0].part->result.scripts.size();
    for (int r = 0; r < m_size; ++r) {
        Peer& p = m_peers[static_cast<size_t>(r)];
        if (p.part) {
            parts.push_back(std::move(*p.part));
        } else {
            // Lost, or cut off by the signal: its counters as of its last heartbeat.
            bench::ProcessStats process = m_processes[static_cast<size_t>(r)];
            process.lost = p.lost;
            parts.push_back(lost_part(process, p.last, scripts));
        }
    }
    return parts;
}

} // namespace pglab::fleet

#endif
