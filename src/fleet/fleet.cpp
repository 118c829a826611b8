#include "fleet/fleet.hpp"

#include "util/log.hpp"

#ifdef PGLAB_HAVE_MPI

#include "bench/run.hpp"
#include "util/cpu_affinity.hpp"
#include "util/stop_signal.hpp"

#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "fleet/merge.hpp"
#include "fleet/session.hpp"
#include "fleet/share.hpp"

#endif

namespace pglab::fleet {

#ifndef PGLAB_HAVE_MPI

int run_fleet(bench::RunConfig&, const LaunchInfo& launch, const ReportFn&) {
    if (launch.rank == 0) {
        log::error("this pglab was built without MPI: it cannot run as one of several processes "
                   "under mpirun");
        log::hint("Build it with Open MPI installed (libopenmpi-dev) and -DPGLAB_MPI=ON, or run "
                  "it as one process.");
    }
    return 1;
}

#else

namespace {

constexpr size_t k_host_len = 256;
constexpr useconds_t k_linger_us = 300000;
constexpr unsigned k_wait_for_kill_s = 3;

double cpu_seconds() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    auto s = [](const timeval& tv) {
        return static_cast<double>(tv.tv_sec) + 0.000001 * static_cast<double>(tv.tv_usec);
    };
    return s(usage.ru_utime) + s(usage.ru_stime);
}

/// Every process's host name, by rank (also on the others: a lost process is named by host).
std::vector<std::string> all_hosts(int size) {
    std::array<char, k_host_len> mine{};
    ::gethostname(mine.data(), mine.size() - 1);
    std::vector<char> all(k_host_len * static_cast<size_t>(size));
    MPI_Allgather(mine.data(), k_host_len, MPI_CHAR, all.data(), k_host_len, MPI_CHAR,
                  MPI_COMM_WORLD);
    std::vector<std::string> hosts;
    for (int r = 0; r < size; ++r) {
        hosts.emplace_back(all.data() + k_host_len * static_cast<size_t>(r));
    }
    return hosts;
}

/// Ends the process without MPI_Finalize, which would wait for a lost process forever. mpirun
/// forwards a process's output through its daemons and stops when the last process ended, so
/// rank 0 lingers a moment for its report to get through (mpirun SIGKILLs it 1 s after its
/// SIGTERM anyway).
[[noreturn]] void leave(int status, bool linger) {
    std::fflush(nullptr);
    if (linger) {
        ::usleep(k_linger_us);
    }
    std::_Exit(status);
}

/// Each process's share of the clients and threads, by rank.
Result<std::vector<bench::ProcessStats>> fleet_processes(const bench::RunConfig& config, int size,
                                                         const std::vector<std::string>& hosts) {
    std::vector<bench::ProcessStats> processes;
    for (int r = 0; r < size; ++r) {
        PGLAB_TRY_ASSIGN(const auto share, share_of(config, r, size));
        bench::ProcessStats& ps = processes.emplace_back();
        ps.rank = r;
        ps.host = hosts[static_cast<size_t>(r)];
        ps.clients = share.clients;
        ps.threads = share.threads;
    }
    return processes;
}

/// What this process sends to rank 0: its counts, and its CPU time against the CPUs it could
/// use.
Part part_of(const bench::RunResult& result, const bench::ProcessStats& process, double cpu_s) {
    Part mine;
    mine.process = process;
    mine.process.pid = ::getpid();
    mine.process.cpu_s = cpu_s;
    const double seconds = 0.000001 * static_cast<double>(result.bench_duration_us);
    const auto cpus = std::max<size_t>(1, util::allowed_cpus().size());
    const double usable = static_cast<double>(
        std::min<size_t>(static_cast<size_t>(std::max(1, mine.process.threads)), cpus));
    mine.process.cpu_share = seconds > 0 ? mine.process.cpu_s / (seconds * usable) : 0.0;
    mine.result.total = result.total;
    mine.result.scripts = result.scripts;
    mine.result.aborted_clients = result.aborted_clients;
    mine.result.bench_duration_us = result.bench_duration_us;
    mine.result.conn_total_us = result.conn_total_us;
    mine.result.start_wall_us = result.start_wall_us;
    mine.result.thread_cpus = result.thread_cpus;
    mine.result.thread_socket_io = result.thread_socket_io;
    mine.result.stop_signal = result.stop_signal;
    mine.result.series = result.series;
    return mine;
}

/// Rank 0: a lost process, or mpirun ending the job for a reason of its own (it says which),
/// said; then the report is of what was done, and the stop is not the user's. True on a loss.
bool say_losses(const Session& session, bench::RunResult& merged) {
    const bool lost = !session.lost().empty() || job_ending();
    if (session.lost().empty() && job_ending()) {
        log::error("mpirun began ending the job before the run was over");
    }
    for (const std::string& name : session.lost()) {
        log::error("lost {}; its clients count as aborted and the report counts its "
                   "transactions up to its last heartbeat",
                   name);
    }
    if (lost) {
        // The stop came from mpirun (or from rank 0) because of the loss, not from the user.
        merged.interrupted = false;
        merged.stop_signal = 0;
    }
    return lost;
}

} // namespace

int run_fleet(bench::RunConfig& config, const LaunchInfo&, const ReportFn& report) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const std::vector<std::string> hosts = all_hosts(size);
    // One seed for the fleet (rank 0's: "time" and "rand" differ per process), then each
    // process derives its own streams from it.
    uint64_t seed = config.random_seed;
    MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    config.random_seed = seed;

    auto processes = fleet_processes(config, size, hosts);
    if (!processes) {
        if (rank == 0) {
            log::print(processes.error());
        }
        MPI_Finalize();
        return 1;
    }
    auto totals = narrow_to_process(config, rank, size, hosts[static_cast<size_t>(rank)]);
    if (!totals) { // not reached: share_of() succeeded for every rank
        MPI_Finalize();
        return 1;
    }

    watch_for_job_end();
    Session session(rank, *processes, config);
    config.hooks = &session;
    // Outermost stop scope: mpirun's SIGTERM (a process died, or the user interrupted mpirun)
    // must leave time to report, after the run's own scope ended too.
    const util::StopSignals signals(util::StopSignals::Repeat::is_noted);
    const double cpu_before = cpu_seconds();
    auto result = bench::run(config);
    config.hooks = nullptr;
    if (!result) {
        if (!result.error().message.empty()) {
            log::print(result.error());
        }
        // The others wait at the start: ending without MPI_Finalize makes mpirun end them.
        leave(result.error().exit_code != 0 ? result.error().exit_code : 1, false);
    }
    Part mine =
        part_of(*result, (*processes)[static_cast<size_t>(rank)], cpu_seconds() - cpu_before);
    std::vector<Part> parts = session.gather(std::move(mine));

    if (rank != 0) {
        if (util::stop_signalled() || job_ending()) {
            // mpirun is ending the job. A process that ends now makes the runtime kill all the
            // others at once, rank 0 before it reported: wait for mpirun's SIGKILL instead.
            ::sleep(k_wait_for_kill_s);
            leave(1, false);
        }
        MPI_Finalize();
        return result->aborted_clients > 0 ? 2 : 0;
    }
    const usec_t t0 = now_us();
    bench::RunResult merged = merge_parts(std::move(*result), parts, config.connect_per_tx);
    merged.fleet.merge_us = now_us() - t0 + session.decode_us;
    const bool lost = say_losses(session, merged);
    widen_to_fleet(config, *totals);
    const int status = report(config, merged);
    if (lost) {
        leave(2, true);
    }
    MPI_Finalize();
    return status;
}

#endif

} // namespace pglab::fleet
