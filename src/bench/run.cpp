// The runner: setup connection, client and generator set-up in pgbench's derivation order,
// worker threads, progress reports, and the merge of the workers' statistics.
#include "bench/run.hpp"

#include "bench/run_hooks.hpp"
#include "bench/setup.hpp"
#include "bench/worker.hpp"
#include "stats/progress_line.hpp"
#include "util/cpu_affinity.hpp"
#include "util/log.hpp"
#include "util/stop_signal.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>
#include <utility>

namespace pglab::bench {

namespace {

void set_if_undefined(script::Variables& vars, const script::VariableTable& table, const char* name,
                      script::Value v) {
    const int slot = table.find(name);
    if (slot >= 0 && !vars.defined(slot)) {
        vars.set(slot, v);
    }
}

stats::ProgressSnapshot snapshot(std::vector<std::unique_ptr<Worker>>& workers, usec_t now) {
    stats::ProgressSnapshot s;
    s.time_us = now;
    const auto relaxed = std::memory_order_relaxed;
    for (auto& w : workers) {
        ProgressCounters& p = w->progress();
        s.count += p.count.load(relaxed);
        s.failures += p.failures.load(relaxed);
        s.skipped += p.skipped.load(relaxed);
        s.retried += p.retried.load(relaxed);
        s.retries += p.retries.load(relaxed);
        s.latency_sum_us += p.latency_sum.load(relaxed);
        s.latency_sum2_us += p.latency_sum2.load(relaxed);
        s.lag_sum_us += p.lag_sum.load(relaxed);
    }
    return s;
}

/// Prints a progress line every -P seconds while the first worker has clients running: pgbench's
/// thread 0 prints them from its own loop, so they stop when its clients are done.
void report_progress(const RunConfig& config, std::vector<std::unique_ptr<Worker>>& workers,
                     usec_t start) {
    const stats::ProgressOptions opts = progress_options(config, start);
    const usec_t step = static_cast<usec_t>(config.progress_s) * 1000000;
    stats::ProgressSnapshot last = snapshot(workers, start);
    last.time_us = start;
    usec_t next = start + step;
    while (!workers.front()->clients_done()) {
        const usec_t now = now_us();
        if (now < next) {
            std::this_thread::sleep_for(
                std::chrono::microseconds(std::min<usec_t>(next - now, 50000)));
            continue;
        }
        stats::ProgressSnapshot cur = snapshot(workers, now);
        const std::string line = stats::format_progress_line(last, cur, opts);
        std::fputs(line.c_str(), stderr);
        last = cur;
        // As pgbench: if reporting fell behind, skip the missed reports.
        do {
            next += step;
        } while (next <= now);
    }
}

} // namespace

stats::ProgressOptions progress_options(const RunConfig& config, usec_t start_us) {
    stats::ProgressOptions opts;
    opts.test_start_us = start_us;
    opts.timestamp = config.progress_timestamp;
    opts.epoch_shift_us = wall_now_us() - now_us();
    opts.throttled = config.rate_tps > 0;
    opts.latency_limit = config.latency_limit_us > 0;
    opts.max_tries = config.max_tries;
    return opts;
}

Result<RunResult> run(RunConfig& config) {
    RunResult result;
    auto setup = pg::Connection::connect(config.conn);
    if (!setup) {
        log::error("{}", setup.error().message);
        return make_error("could not create connection for setup");
    }
    print_banner(*setup, result, config);
    if (config.duration_s <= 0) {
        log::debug("pghost: {} pgport: {} nclients: {} nxacts: {} dbName: {}", setup->host(),
                   setup->port(), config.clients, config.transactions, setup->dbname());
    } else {
        log::debug("pghost: {} pgport: {} nclients: {} duration: {} dbName: {}", setup->host(),
                   setup->port(), config.clients, config.duration_s, setup->dbname());
    }
    result.scale = config.scale;
    if (config.uses_builtin) {
        PGLAB_TRY(discover_tables(*setup, config, result));
    }

    // Clients and their generators, in pgbench's order: each client's function generator from
    // the base generator, then default_seed, then each thread's choose/throttle/sample streams.
    script::Prng base;
    base.seed(config.random_seed);
    const script::VariableTable& table = config.scripts.variables();
    std::vector<std::unique_ptr<Client>> clients;
    clients.reserve(static_cast<size_t>(config.clients));
    for (int i = 0; i < config.clients; ++i) {
        auto c = std::make_unique<Client>(table);
        c->id = config.first_client_id + i;
        c->prng.seed(base.next_u64());
        for (const auto& d : config.defines) {
            // A -D variable that no script mentions has no slot and is never read.
            if (const int slot = table.find(d.name); slot >= 0) {
                c->vars.set_string(slot, d.value);
            }
        }
        clients.push_back(std::move(c));
    }
    const int default_seed_slot = table.find("default_seed");
    const bool default_seed_defined =
        default_seed_slot >= 0 && clients[0]->vars.defined(default_seed_slot);
    const auto default_seed = static_cast<int64_t>(default_seed_defined ? 0 : base.next_u64());
    for (auto& c : clients) {
        set_if_undefined(c->vars, table, "scale", script::Value::integer(result.scale));
        set_if_undefined(c->vars, table, "client_id", script::Value::integer(c->id));
        set_if_undefined(c->vars, table, "random_seed",
                         script::Value::integer(static_cast<int64_t>(config.random_seed)));
        if (!default_seed_defined) {
            set_if_undefined(c->vars, table, "default_seed", script::Value::integer(default_seed));
        }
    }

    read_settings(*setup, result);
    vacuum_before_run(*setup, config);
    setup->close();

    const int nthreads = config.threads;
    RunShared shared(config, nthreads);
    std::vector<std::unique_ptr<Worker>> workers;
    const std::vector<int> cpus = config.pin_threads ? util::allowed_cpus() : std::vector<int>{};
    size_t next_client = 0;
    for (int t = 0; t < nthreads; ++t) {
        const int remaining = config.clients - static_cast<int>(next_client);
        const int share = (remaining + nthreads - t - 1) / (nthreads - t);
        std::vector<std::unique_ptr<Client>> mine;
        for (int k = 0; k < share; ++k) {
            mine.push_back(std::move(clients[next_client++]));
        }
        script::Prng choose, throttle, sample;
        choose.seed(base.next_u64());
        throttle.seed(base.next_u64());
        sample.seed(base.next_u64());
        workers.push_back(
            std::make_unique<Worker>(shared, t, std::move(mine), choose, throttle, sample));
        workers.back()->set_cpu(util::cpu_for_worker(t, nthreads, cpus));
    }
    for (auto& w : workers) {
        std::string error;
        if (!w->open_log(error)) {
            return make_error(error);
        }
    }

    // pgbench's handling: a second signal ends the process at once. Inside `pglab run` the lab's
    // scope stays in force (the same request, its own handlers).
    const util::StopSignals signals(util::StopSignals::Repeat::ends_process);
    // -T counts from here, before the connections are made, as pgbench's timer does: a run
    // whose clients take longer to connect than its duration runs no transaction.
    usec_t threads_start = now_us();
    if (config.hooks != nullptr) {
        PGLAB_TRY_ASSIGN(threads_start, config.hooks->agree_start());
    }
    if (config.duration_s > 0) {
        shared.end_time.store(threads_start + static_cast<usec_t>(config.duration_s) * 1000000);
    }
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(nthreads));
    for (auto& w : workers) {
        threads.emplace_back([&w] { w->run(); });
    }
    if (config.hooks != nullptr) {
        config.hooks->monitor([&workers] { return snapshot(workers, now_us()); },
                              [&workers] {
                                  return std::all_of(
                                      workers.begin(), workers.end(),
                                      [](const auto& w) { return w->clients_done(); });
                              });
    } else if (config.progress_s > 0 && !config.quiet) {
        report_progress(config, workers, threads_start);
    }
    for (auto& t : threads) {
        t.join();
    }
    // The measured period ends when the last client finished; closing the connections
    // afterwards is not part of it (pgbench does not measure its final disconnections either).
    usec_t end = 0;
    for (const auto& w : workers) {
        end = std::max(end, w->loop_end());
    }
    if (shared.setup_failed.load()) {
        return make_error(Error().with_exit_code(1)); // already reported by the worker
    }

    result.scripts.resize(config.scripts.scripts().size());
    for (size_t i = 0; i < result.scripts.size(); ++i) {
        result.scripts[i].commands.resize(config.scripts.scripts()[i].commands.size());
    }
    for (auto& w : workers) {
        result.total.merge(w->total());
        for (size_t i = 0; i < result.scripts.size(); ++i) {
            result.scripts[i].merge(w->script_stats()[i]);
        }
        result.aborted_clients += w->aborted_clients();
        result.wakeup_error.merge(w->wakeup_error());
        result.thread_cpus.push_back(w->cpu());
        result.thread_socket_io.emplace_back(w->batched_io() ? "io_uring" : "epoll");
        if (config.connect_per_tx) {
            result.conn_total_us += w->conn_time_us();
        }
    }
    const usec_t start = shared.earliest_start.load();
    result.bench_duration_us = end - start;
    if (!config.connect_per_tx) {
        result.conn_total_us = start - threads_start;
    }
    result.start_wall_us = wall_now_us() - (now_us() - start);
    result.stop_signal = g_stop_signal.load();
    result.interrupted = result.stop_signal != 0;
    result.series = shared.series.finish();
    return result;
}

} // namespace pglab::bench
