// lab/run: the plan loop of `pglab run`.
#include "lab/run/orchestrator.hpp"

#include "lab/plan/plan.hpp"
#include "lab/plan/run_values.hpp"
#include "lab/probe/probe.hpp"
#include "lab/run/experiment_copy.hpp"
#include "lab/run/servers.hpp"
#include "lab/run/steps.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "lab/spec/parse_experiment.hpp"
#include "lab/store/results_store.hpp"
#include "util/clock.hpp"
#include "util/log.hpp"
#include "util/machine_info.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <thread>

namespace pglab::lab::run {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

std::atomic<bool> g_stop{false};

void on_signal(int /*sig*/) {
    g_stop.store(true);
}

/// SIGINT/SIGTERM set g_stop for the whole plan (bench::run installs its own handlers during a
/// benchmark and restores these afterwards). Installed before any cluster exists, so the cleanup
/// registry leaves them alone and clusters are removed by their destructors.
class StopSignals {
public:
    StopSignals() {
        struct sigaction sa {};

        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &m_old_int);
        sigaction(SIGTERM, &sa, &m_old_term);
    }

    ~StopSignals() {
        sigaction(SIGINT, &m_old_int, nullptr);
        sigaction(SIGTERM, &m_old_term, nullptr);
    }

    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

private:
    struct sigaction m_old_int {};

    struct sigaction m_old_term {};
};

/// While alive, a thread that cancels the statements of pglab's sessions once SIGINT/SIGTERM is
/// seen (and again every second while the plan is still ending), so that a step waiting for a
/// long statement ends within moments and the plan can stop cleanly.
class CancelOnStop {
public:
    explicit CancelOnStop(SessionBackends& backends)
        : m_thread([this, &backends] {
              auto last = std::chrono::steady_clock::time_point{};
              while (!m_done.load()) {
                  const auto now = std::chrono::steady_clock::now();
                  if (g_stop.load() && now - last >= std::chrono::seconds(1)) {
                      backends.cancel_all();
                      last = now;
                  }
                  std::this_thread::sleep_for(std::chrono::milliseconds(20));
              }
          }) {}

    ~CancelOnStop() {
        m_done.store(true);
        m_thread.join();
    }

    CancelOnStop(const CancelOnStop&) = delete;
    CancelOnStop& operator=(const CancelOnStop&) = delete;

private:
    std::atomic<bool> m_done{false};
    std::thread m_thread;
};

double ms_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

nlohmann::json scalar_json(const spec::Scalar& s) {
    return std::visit([](const auto& v) { return nlohmann::json(v); }, s.value);
}

std::string iso_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", &tm);
    std::string s = buf; // +0200 -> +02:00
    if (s.size() <= 5) {
        return s;
    }
    return s.substr(0, s.size() - 2) + ":" + s.substr(s.size() - 2);
}

std::string step_key(const spec::Step& step, std::size_t index) {
    return step.name.empty() ? fmt::format("{}:{}", index, spec::step_type_name(step.type))
                             : step.name;
}

/// The machine the plan runs on; null for what could not be read.
nlohmann::json machine_json(const util::MachineInfo& m) {
    const auto text = [](const std::string& s) {
        return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
    };
    const auto count = [](std::int64_t n) {
        return n > 0 ? nlohmann::json(n) : nlohmann::json(nullptr);
    };
    return {{"cpu_model", text(m.cpu_model)},
            {"cores", count(m.cores)},
            {"memory_bytes", count(m.memory_bytes)},
            {"kernel", text(m.kernel)}};
}

nlohmann::json plan_json(const spec::ExperimentSpec& spec, const plan::Plan& plan,
                         const std::string& file, const char* seed_source) {
    nlohmann::json j;
    j["version"] = "pglab.plan/1";
    j["experiment"] = spec.name;
    j["description"] = spec.description;
    j["file"] = file;
    j["pglab_version"] = PGLAB_VERSION;
    j["created_at"] = iso_now();
    j["machine"] = machine_json(util::read_machine_info());
    j["seed"] = plan.seed;
    j["seed_source"] = seed_source;
    j["order"] = spec::run_order_name(plan.order);
    j["repeat"] = spec.repeat;
    j["warmup"] = spec.warmup;
    j["on_error"] = spec.on_error == spec::OnError::stop ? "stop" : "continue";
    j["variables"] = nlohmann::json::array();
    for (const auto& v : spec.matrix.variables) {
        j["variables"].push_back(v.name);
    }
    j["servers"] = nlohmann::json::array();
    for (const auto& s : spec.servers) {
        j["servers"].push_back({{"name", s.name},
                                {"version", s.version},
                                {"bin_dir", s.bin_dir},
                                {"existing", s.is_existing()}});
    }
    j["steps"] = nlohmann::json::array();
    for (std::size_t i = 0; i < spec.steps.size(); ++i) {
        const auto& st = spec.steps[i];
        j["steps"].push_back({{"index", i},
                              {"key", step_key(st, i)},
                              {"name", st.name},
                              {"type", spec::step_type_name(st.type)},
                              {"measure", st.measure}});
    }
    j["cells"] = nlohmann::json::array();
    for (const auto& c : plan.cells) {
        nlohmann::json values = nlohmann::json::object();
        for (const auto& b : c.bindings) {
            values[b.name] = scalar_json(b.value);
        }
        j["cells"].push_back(
            {{"index", c.index}, {"label", c.label()}, {"server", c.server}, {"values", values}});
    }
    j["runs"] = nlohmann::json::array();
    for (const auto& r : plan.runs) {
        j["runs"].push_back({{"run", r.ordinal},
                             {"cell", r.cell},
                             {"repetition", r.repetition},
                             {"warmup", r.warmup},
                             {"round", r.round}});
    }
    return j;
}

/// Progress on stderr: one rewritten line on a terminal, plain lines otherwise.
class Progress {
public:
    Progress(std::size_t total, std::size_t already)
        : m_total(total), m_done(already), m_tty(::isatty(2) == 1), m_start(Clock::now()) {}

    void starting(const plan::PlannedRun& run, const plan::Cell& cell) {
        std::string eta = "--";
        if (m_finished_here > 0) {
            const double per =
                ms_between(m_start, Clock::now()) / static_cast<double>(m_finished_here);
            const auto left =
                static_cast<long long>(per * static_cast<double>(m_total - m_done) / 1000.0);
            eta = fmt::format("{}:{:02}", left / 60, left % 60);
        }
        const std::string text =
            fmt::format("[{}/{}] run {} {}{} rep {}  ETA {}", m_done + 1, m_total, run.ordinal,
                        cell.label(), run.warmup ? " (warm-up)" : "", run.repetition, eta);
        if (m_tty) {
            const std::size_t width = 20;
            const std::size_t filled = m_total == 0 ? width : width * m_done / m_total;
            std::fprintf(stderr, "\r\033[K[%s%s] %s", std::string(filled, '#').c_str(),
                         std::string(width - filled, '.').c_str(), text.c_str());
        } else {
            std::fprintf(stderr, "pglab: %s\n", text.c_str());
        }
        std::fflush(stderr);
    }

    void finished() {
        ++m_done;
        ++m_finished_here;
    }

    void end() {
        if (m_tty) {
            std::fputs("\r\033[K", stderr);
            std::fflush(stderr);
        }
    }

private:
    std::size_t m_total;
    std::size_t m_done;
    std::size_t m_finished_here = 0;
    bool m_tty;
    Clock::time_point m_start;
};

nlohmann::json deltas_json(const probe::Deltas& deltas) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& d : deltas) {
        j[d.name] = d.value;
    }
    return j;
}

Result<probe::Snapshot> snapshot(ServerSet& servers, const std::string& server) {
    PGLAB_TRY_ASSIGN(pg::Connection * conn, servers.probe_connection(server));
    ServerState& st = servers.at(server);
    probe::ProbeContext ctx; // an existing server: the postmaster from the backend, if local
    if (st.cluster) {
        ctx.postmaster_pid = st.cluster->server_pid();
        ctx.data_dir = st.cluster->data_dir();
        ctx.sync_counts_file = st.cluster->sync_counts_file();
        if (st.cluster->memory_cgroup()) {
            ctx.memory_cgroup_dir = st.cluster->memory_cgroup()->dir;
        }
    }
    return probe::take_snapshot(*conn, ctx);
}

/// The replication_lag probe of a primary: its standbys in pg_stat_replication and, over them,
/// the largest write/flush/replay lag (ms; null when the standby has caught up and reported no
/// lag since) and the bytes the slowest one has yet to replay. Null when the query fails.
nlohmann::json replication_lag(ServerSet& servers, const std::string& server) {
    auto conn = servers.probe_connection(server);
    if (!conn) {
        return nullptr;
    }
    auto r = (*conn)->exec(
        "SELECT count(*), max(extract(epoch FROM write_lag)) * 1000, "
        "max(extract(epoch FROM flush_lag)) * 1000, max(extract(epoch FROM replay_lag)) * 1000, "
        "max(pg_wal_lsn_diff(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() "
        "ELSE pg_current_wal_lsn() END, replay_lsn))::bigint FROM pg_stat_replication");
    if (!r || r->ntuples() != 1) {
        return nullptr;
    }
    auto number = [&](int col) {
        return r->is_null(0, col) ? nlohmann::json(nullptr)
                                  : nlohmann::json(std::atof(r->value(0, col)));
    };
    nlohmann::json j;
    j["standbys"] = std::atoi(r->value(0, 0));
    j["write_lag_ms"] = number(1);
    j["flush_lag_ms"] = number(2);
    j["replay_lag_ms"] = number(3);
    j["bytes_behind"] =
        r->is_null(0, 4) ? nlohmann::json(nullptr) : nlohmann::json(std::atoll(r->value(0, 4)));
    return j;
}

bool is_measured_type(spec::StepType t) {
    return t == spec::StepType::bench || t == spec::StepType::timed_sql
           || t == spec::StepType::explain || t == spec::StepType::init || t == spec::StepType::sql
           || t == spec::StepType::shell;
}

struct Totals {
    std::size_t ok = 0;
    std::size_t failed = 0;
    double overhead_sum = 0;
    double overhead_max = 0;
};

} // namespace

int run_experiment(const RunRequest& request) {
    g_stop.store(false);
    const bool resume = !request.resume_dir.empty();
    std::optional<store::ResultsStore> store;
    fs::path experiment = request.experiment;
    if (resume) {
        auto opened = store::ResultsStore::open(request.resume_dir);
        if (!opened) {
            log::print(opened.error());
            return 1;
        }
        store.emplace(std::move(*opened));
        experiment = resume_experiment(*store);
    }

    auto parsed = spec::parse_experiment_file(experiment);
    if (!parsed) {
        log::print(parsed.error());
        return 1;
    }
    spec::ExperimentSpec& spec = *parsed;

    const char* seed_source = "chosen";
    std::uint64_t seed = 0;
    if (resume) {
        seed = store->plan().value("seed", std::uint64_t{0});
        seed_source = "resumed";
    } else if (request.seed) {
        seed = *request.seed;
        seed_source = "command-line";
    } else if (spec.seed) {
        seed = *spec.seed;
        seed_source = "file";
    } else {
        seed = plan::choose_seed(spec, std::random_device{}()
                                           ^ static_cast<std::uint64_t>(pglab::wall_now_us()));
    }
    auto built = plan::build_plan(spec, seed);
    if (!built) {
        log::print(built.error());
        return 1;
    }
    const plan::Plan& plan = *built;

    if (request.dry_run) {
        std::printf("%s: %zu cells, %zu runs, order %s, seed %llu\n", spec.name.c_str(),
                    plan.cells.size(), plan.runs.size(), spec::run_order_name(plan.order),
                    static_cast<unsigned long long>(plan.seed));
        for (const auto& r : plan.runs) {
            std::printf("%4zu  cell %zu  %s  repetition %u%s\n", r.ordinal, r.cell,
                        plan.cells[r.cell].label().c_str(), r.repetition,
                        r.warmup ? " (warm-up)" : "");
        }
        return 0;
    }

    if (resume) {
        const nlohmann::json fresh = plan_json(spec, plan, "", seed_source);
        if (fresh["runs"] != store->plan()["runs"]) {
            log::error("\"{}\" no longer gives the plan recorded in \"{}\"", experiment.string(),
                       (request.resume_dir / "plan.json").string());
            return 1;
        }
    }

    StopSignals signals;
    server::remove_stale_clusters(std::filesystem::temp_directory_path());
    ServerSet servers(spec);
    if (auto st = servers.check(spec); !st) {
        log::print(st.error());
        return 1;
    }

    if (!resume) {
        const fs::path dir =
            request.results_dir.empty()
                ? store::default_results_dir(spec.name, pglab::wall_now_us() / 1000000)
                : request.results_dir;
        auto copy = masked_experiment_text(experiment);
        if (!copy) {
            log::print(copy.error());
            return 1;
        }
        auto created = store::ResultsStore::create(
            dir, *copy, plan_json(spec, plan, experiment.string(), seed_source));
        if (!created) {
            log::print(created.error());
            return 1;
        }
        store.emplace(std::move(*created));
    }
    // From here on the run's messages are kept with its results (they carry no password:
    // connection strings are redacted wherever they are printed).
    const log::CopyToFile log_copy((store->dir() / "pglab.log").string());
    const std::size_t already = store->finished().size();
    if (resume) {
        log::info("resuming \"{}\": {} of {} runs already finished", store->dir().string(), already,
                  plan.runs.size());
    }

    const CancelOnStop cancel_on_stop(servers.backends());
    Progress progress(plan.runs.size(), already);
    Totals totals;
    int exit_status = 0;
    bool interrupted = false;
    for (const plan::PlannedRun& run : plan.runs) {
        if (store->finished().count(run.ordinal)) {
            continue;
        }
        if (g_stop.load()) {
            interrupted = true;
            break;
        }
        const plan::Cell& cell = plan.cells[run.cell];
        progress.starting(run, cell);
        const Clock::time_point t0 = Clock::now();
        const std::int64_t start_us = pglab::wall_now_us();
        const std::string started_at = iso_now();
        plan::RunValues values(cell, run);
        int restarts = 0;

        nlohmann::json line;
        line["version"] = "pglab.run/1";
        line["experiment"] = spec.name;
        line["run"] = run.ordinal;
        line["cell"] = run.cell;
        nlohmann::json cell_values = nlohmann::json::object();
        for (const auto& b : cell.bindings) {
            cell_values[b.name] = scalar_json(b.value);
        }
        line["values"] = cell_values;
        line["label"] = cell.label();
        line["repetition"] = run.repetition;
        line["warmup"] = run.warmup;
        line["round"] = run.round;
        line["seed"] = plan.seed;
        line["status"] = "ok";
        line["error"] = nullptr;
        line["started_at"] = started_at;
        line["start_time_us"] = start_us;

        std::string run_error;
        nlohmann::json error_obj = nullptr;
        // Every run starts from the file's topology: a standby promoted by an earlier run (and
        // the standbys downstream of it) is made anew from its primary when next used.
        for (const std::string& name : servers.servers_to_remake()) {
            ServerState& state = servers.at(name);
            store->copy_server_log(name, state.clusters_created, state.cluster->log_path());
            servers.discard(name);
        }
        const std::vector<spec::Setting> settings =
            plan::effective_settings(spec, cell, cell.server);
        if (auto st = servers.ensure(cell.server, settings, restarts); !st) {
            run_error = st.error().message;
            error_obj = {{"step", nullptr}, {"step_key", nullptr}, {"reason", run_error}};
        }
        const Clock::time_point t_server = Clock::now();
        ServerState& main_server = servers.at(cell.server);

        auto run_dir = store->run_dir(run.ordinal);
        double steps_ms = 0;
        nlohmann::json steps = nlohmann::json::array();
        bool stop_steps = !run_error.empty();
        for (std::size_t i = 0; i < spec.steps.size(); ++i) {
            const spec::Step& step = spec.steps[i];
            nlohmann::json s;
            s["index"] = i;
            s["key"] = step_key(step, i);
            s["type"] = spec::step_type_name(step.type);
            const std::string server = values.server_of(spec, step);
            s["server"] = server;
            s["status"] = "not-run";
            s["error"] = nullptr;
            s["elapsed_ms"] = nullptr;
            s["log"] = nullptr;
            s["probes"] = nullptr;
            if (stop_steps) {
                steps.push_back(s);
                continue;
            }
            auto applies = values.applies(step);
            std::string fingerprint;
            if (applies && *applies && step.once) {
                auto fp = values.fingerprint(spec, step);
                fingerprint = fp ? *fp : std::string();
            }
            if (!applies || !*applies) {
                s["status"] = applies ? "skipped" : "failed";
                if (applies) {
                    s["skip_reason"] = "when";
                } else {
                    s["error"] = applies.error().message;
                }
            } else if (step.once && (servers.at(server).cluster || servers.at(server).existing())
                       && servers.at(server).once_done.count(i)
                       && servers.at(server).once_done[i] == fingerprint) {
                s["status"] = "skipped";
                s["skip_reason"] = "once";
            }
            if (s["status"] != "not-run") {
                if (s["status"] == "failed") {
                    run_error = s["error"].get<std::string>();
                    error_obj = {{"step", i}, {"step_key", s["key"]}, {"reason", run_error}};
                    stop_steps = true;
                }
                steps.push_back(s);
                continue;
            }
            if (server != cell.server) {
                if (auto st = servers.ensure(server, plan::effective_settings(spec, cell, server),
                                             restarts);
                    !st) {
                    s["status"] = "failed";
                    s["error"] = st.error().message;
                    run_error = st.error().message;
                    error_obj = {{"step", i}, {"step_key", s["key"]}, {"reason", run_error}};
                    stop_steps = true;
                    steps.push_back(s);
                    continue;
                }
            }
            const fs::path log =
                run_dir ? *run_dir / fmt::format("{:02}-{}.log", i, spec::step_type_name(step.type))
                        : fs::path("/dev/null");
            const bool measured = step.measure && is_measured_type(step.type);
            std::optional<probe::Snapshot> before;
            if (measured) {
                if (auto snap = snapshot(servers, server)) {
                    before = std::move(*snap);
                }
            }
            StepContext ctx{spec, servers, values, server, log, g_stop, restarts};
            const Clock::time_point ts = Clock::now();
            StepOutcome outcome = execute_step(step, ctx);
            const double elapsed = ms_between(ts, Clock::now());
            steps_ms += elapsed;
            if (before) {
                if (auto after = snapshot(servers, server)) {
                    s["probes"] = deltas_json(probe::diff(*before, *after));
                }
            }
            if (measured && servers.has_standbys(server)) {
                s["replication"] = replication_lag(servers, server);
            }
            s["elapsed_ms"] = elapsed;
            if (outcome.wrote_log) {
                s["log"] = store->relative(log);
            }
            for (auto& [k, v] : outcome.fields.items()) {
                s[k] = v;
            }
            if (outcome.interrupted || g_stop.load()) {
                // A step cut short by SIGINT/SIGTERM (a cancelled statement fails): the run is
                // not finished and gets no line.
                interrupted = true;
                g_stop.store(true);
                stop_steps = true;
            }
            if (outcome.error.empty()) {
                s["status"] = "ok";
                if (step.once) {
                    servers.at(server).once_done[i] = fingerprint;
                }
            } else {
                s["status"] = "failed";
                s["error"] = outcome.error;
                run_error = outcome.error;
                error_obj = {{"step", i}, {"step_key", s["key"]}, {"reason", run_error}};
                stop_steps = true;
            }
            steps.push_back(s);
            if (spec.run_timeout_ms > 0 && !stop_steps
                && ms_between(t0, Clock::now()) > static_cast<double>(spec.run_timeout_ms)) {
                run_error = fmt::format("run timeout ({} ms) exceeded", spec.run_timeout_ms);
                error_obj = {{"step", nullptr}, {"step_key", nullptr}, {"reason", run_error}};
                stop_steps = true;
            }
        }
        for (auto& [name, state] : servers.all()) {
            state.sessions.clear(); // sessions live for one run
        }
        servers.backends().clear();
        if (interrupted) {
            break; // an interrupted run gets no line: --resume runs it again
        }

        nlohmann::json srv;
        srv["name"] = cell.server;
        srv["version"] = main_server.version.empty() ? nlohmann::json(nullptr)
                                                     : nlohmann::json(main_server.version);
        srv["version_num"] = main_server.version_num == 0 ? nlohmann::json(nullptr)
                                                          : nlohmann::json(main_server.version_num);
        srv["bin_dir"] = main_server.cluster
                             ? nlohmann::json(main_server.cluster->bin_dir().string())
                             : nlohmann::json(nullptr);
        srv["cluster"] = main_server.clusters_created;
        nlohmann::json requested = nlohmann::json::object();
        nlohmann::json current = nlohmann::json::object();
        std::string names;
        for (const auto& st : settings) {
            requested[st.name] = st.value.setting_text();
        }
        if (!settings.empty() && main_server.running()) {
            if (auto conn = servers.probe_connection(cell.server)) {
                for (const auto& st : settings) {
                    if (st.name.find('.') != std::string::npos) {
                        continue;
                    }
                    auto r = (*conn)->exec(fmt::format("SELECT current_setting('{}')", st.name));
                    if (r && r->ntuples() == 1) {
                        current[st.name] = r->value(0, 0);
                    }
                }
            }
        }
        srv["settings"] = current;
        srv["requested"] = requested;
        line["server"] = srv;
        line["steps"] = steps;
        if (!run_error.empty()) {
            line["status"] = "failed";
            line["error"] = error_obj;
        }
        const Clock::time_point t_end = Clock::now();
        const double total_ms = ms_between(t0, t_end);
        const double server_ms = ms_between(t0, t_server);
        const double overhead = total_ms - server_ms - steps_ms;
        line["timings"] = {{"total_ms", total_ms},
                           {"server_ms", server_ms},
                           {"steps_ms", steps_ms},
                           {"overhead_ms", overhead},
                           {"restarts", restarts}};
        if (auto st = store->append(line); !st) {
            progress.end();
            log::print(st.error());
            exit_status = 1;
            break;
        }
        progress.finished();
        totals.overhead_sum += overhead;
        totals.overhead_max = std::max(totals.overhead_max, overhead);
        if (run_error.empty()) {
            ++totals.ok;
        } else {
            ++totals.failed;
            progress.end();
            log::warning("run {} ({}) failed: {}", run.ordinal, cell.label(), run_error);
            exit_status = 1;
            if (spec.on_error == spec::OnError::stop) {
                break;
            }
        }
    }
    progress.end();

    // Server logs, then the clusters go (destructors).
    for (auto& [name, state] : servers.all()) {
        state.drop_connections();
        if (state.cluster) {
            store->copy_server_log(name, state.clusters_created, state.cluster->log_path());
            (void)state.cluster->remove();
        }
    }
    const std::size_t ran = totals.ok + totals.failed;
    std::string restarts;
    for (auto& [name, state] : servers.all()) {
        restarts += fmt::format("{}{}: {}", restarts.empty() ? "" : ", ", name, state.restarts);
    }
    log::info("{} run(s) finished ({} ok, {} failed), {} of {} in the plan; restarts: {}; "
              "orchestration overhead per run: mean {:.1f} ms, max {:.1f} ms",
              ran, totals.ok, totals.failed, store->finished().size(), plan.runs.size(), restarts,
              ran > 0 ? totals.overhead_sum / static_cast<double>(ran) : 0.0, totals.overhead_max);
    if (interrupted) {
        log::warning("interrupted: continue with \"pglab run --resume {}\"", store->dir().string());
        exit_status = 2;
    }
    std::printf("results: %s\n", store->dir().string().c_str());
    std::fflush(stdout);
    return exit_status;
}

} // namespace pglab::lab::run
