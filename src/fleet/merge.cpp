#include "fleet/merge.hpp"

#include <algorithm>
#include <map>

namespace pglab::fleet {

namespace {

/// The share of the CPUs a process could use (one per thread, at most the machine's) that it
/// used: above this, the client machine probably limited the throughput.
constexpr double k_cpu_bound_share = 0.9;

void merge_series(std::map<int64_t, bench::SecondStats>& into,
                  const std::vector<bench::SecondStats>& series) {
    for (const bench::SecondStats& s : series) {
        auto [it, fresh] = into.try_emplace(s.epoch_s, s);
        if (fresh) {
            continue;
        }
        // The per-second coarse histograms do not travel: the fleet's p99 is the processes'
        // highest, an upper bound.
        it->second.add(s);
    }
}

} // namespace

Part lost_part(const bench::ProcessStats& process, const stats::ProgressSnapshot& last,
               size_t scripts) {
    Part p;
    p.process = process;
    bench::TxStats& t = p.result.total;
    t.count = last.count;
    t.serialization_failures = last.failures;
    t.skipped = last.skipped;
    t.retried = last.retried;
    t.retries = last.retries;
    t.latency_us.count = last.count;
    t.latency_us.sum = last.latency_sum_us;
    t.latency_us.sum2 = last.latency_sum2_us;
    t.latency_us.min = t.latency_us.max = t.latency_us.mean();
    t.lag_us.count = last.count;
    t.lag_us.sum = last.lag_sum_us;
    t.lag_us.min = t.lag_us.max = t.lag_us.mean();
    p.result.scripts.resize(scripts);
    if (scripts == 1) {
        p.result.scripts[0].tx = t;
    }
    p.result.aborted_clients = process.lost ? process.clients : 0;
    return p;
}

bench::RunResult merge_parts(bench::RunResult base, const std::vector<Part>& parts,
                             bool connect_per_tx) {
    bench::RunResult& r = base;
    const size_t scripts = r.scripts.size();
    r.total = bench::TxStats();
    for (bench::ScriptStats& s : r.scripts) {
        s = bench::ScriptStats{bench::TxStats(),
                               std::vector<bench::CommandStats>(s.commands.size())};
    }
    r.aborted_clients = 0;
    r.conn_total_us = 0;
    r.thread_cpus.clear();
    r.thread_socket_io.clear();
    usec_t start = 0;
    usec_t end = 0;
    std::map<int64_t, bench::SecondStats> series;
    for (const Part& p : parts) {
        const bench::RunResult& x = p.result;
        r.total.merge(x.total);
        for (size_t i = 0; i < scripts && i < x.scripts.size(); ++i) {
            r.scripts[i].tx.merge(x.scripts[i].tx);
            for (size_t c = 0; c < r.scripts[i].commands.size() && c < x.scripts[i].commands.size();
                 ++c) {
                r.scripts[i].commands[c].merge(x.scripts[i].commands[c]);
            }
        }
        r.aborted_clients += x.aborted_clients;
        r.conn_total_us = connect_per_tx ? r.conn_total_us + x.conn_total_us
                                         : std::max(r.conn_total_us, x.conn_total_us);
        r.thread_cpus.insert(r.thread_cpus.end(), x.thread_cpus.begin(), x.thread_cpus.end());
        r.thread_socket_io.insert(r.thread_socket_io.end(), x.thread_socket_io.begin(),
                                  x.thread_socket_io.end());
        if (x.start_wall_us > 0) { // a counters-only part (lost_part) has no period
            start = start == 0 ? x.start_wall_us : std::min(start, x.start_wall_us);
            end = std::max(end, x.start_wall_us + x.bench_duration_us);
        }
        merge_series(series, x.series);
    }
    r.start_wall_us = start;
    r.bench_duration_us = end - start;
    r.series.clear();
    for (const auto& [second, s] : series) {
        r.series.push_back(s);
    }
    r.fleet.processes.clear();
    for (const Part& p : parts) {
        bench::ProcessStats ps = p.process;
        ps.transactions = p.result.total.count;
        if (p.result.start_wall_us > 0) {
            const double seconds = 0.000001 * static_cast<double>(p.result.bench_duration_us);
            ps.tps = seconds > 0 ? static_cast<double>(ps.transactions) / seconds : 0.0;
            ps.cpu_bound = ps.cpu_share >= k_cpu_bound_share;
            ps.start_skew_us = p.result.start_wall_us - start;
        }
        r.fleet.processes.push_back(std::move(ps));
    }
    return base;
}

} // namespace pglab::fleet
