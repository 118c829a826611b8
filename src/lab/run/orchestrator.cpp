// lab/run: the plan loop of `pglab run`, as named phases: prepare (parse, seed, plan), check
// (everything that can be refused before a server starts; --dry-run stops after it), open the
// store (locked), then per run: the servers for its cell, its steps (each through the step kinds
// of steps.cpp, under the run's deadline), the server's facts, and its record.
#include "lab/run/orchestrator.hpp"

#include "lab/experiment/parse_experiment.hpp"
#include "lab/plan/plan.hpp"
#include "lab/plan/run_values.hpp"
#include "lab/probe/probe.hpp"
#include "lab/probe/wait_sampler.hpp"
#include "lab/run/busy_machine.hpp"
#include "lab/run/checks.hpp"
#include "lab/run/estimate.hpp"
#include "lab/run/experiment_copy.hpp"
#include "lab/run/servers.hpp"
#include "lab/run/settle.hpp"
#include "lab/run/sql_step.hpp"
#include "lab/run/step_options.hpp"
#include "lab/run/step_progress.hpp"
#include "lab/run/steps.hpp"
#include "lab/run/watchdog.hpp"
#include "lab/server/installation.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "lab/store/results_store.hpp"
#include "lab/store/run_record.hpp"
#include "util/build_info.hpp"
#include "util/clock.hpp"
#include "util/log.hpp"
#include "util/machine_info.hpp"
#include "util/stop_signal.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <set>

namespace pglab::lab::run {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
using store::RunRecord;
using store::StepRecord;
using store::StepStatus;

/// How long a failed step's server may take to be seen dead (SIGKILL to zombie).
constexpr auto k_death_grace = std::chrono::milliseconds(500);

double ms_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
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

std::string step_key(const experiment::Step& step, std::size_t index) {
    return step.name.empty() ? fmt::format("{}:{}", index, experiment::step_type_name(step.type))
                             : step.name;
}

/// The record of the plan, as plan.json keeps it; `file` is the experiment file as given.
store::PlanRecord plan_record(const experiment::ExperimentSpec& spec, const plan::Plan& plan,
                              const std::string& file, const char* seed_source) {
    store::PlanRecord r;
    r.experiment = spec.name;
    r.description = spec.description;
    r.file = file;
    r.pglab_version = PGLAB_VERSION;
    r.pglab_commit = util::build_commit();
    r.created_at = iso_now();
    r.machine = util::read_machine_info();
    r.seed = plan.seed;
    r.seed_source = seed_source;
    r.order = experiment::run_order_name(plan.order);
    r.repeat = spec.repeat;
    if (spec.until_decided) {
        r.repeat_max = spec.until_decided->max;
        r.repeat_budget_ms = spec.until_decided->budget_ms;
    }
    r.warmup = spec.warmup;
    r.quick = spec.is_quick;
    r.on_error = spec.on_error == experiment::OnError::stop ? "stop" : "continue";
    for (const auto& v : spec.matrix.variables) {
        r.variables.push_back(v.name);
    }
    for (const auto& s : spec.servers) {
        std::vector<std::string> initdb;
        for (const experiment::TextField& arg : s.initdb_options) {
            initdb.push_back(arg.text);
        }
        r.servers.push_back({s.name, s.version, s.bin_dir, s.is_existing(), std::move(initdb)});
    }
    for (std::size_t i = 0; i < spec.steps.size(); ++i) {
        const auto& st = spec.steps[i];
        r.steps.push_back({i, step_key(st, i), st.name, experiment::step_type_name(st.type),
                           st.measure, st.once});
    }
    r.cells = plan.cells;
    for (const auto& run : plan.runs) {
        r.runs.push_back({run.ordinal, run.cell, run.repetition, run.warmup, run.round});
    }
    r.question = spec.question;
    r.claims.emplace();
    for (experiment::Claim c : spec.claims) {
        c.pos = {}; // where the file had it is the file's, not the plan's
        r.claims->push_back(std::move(c));
    }
    return r;
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
        // A long matrix value is shown by its start and length, not echoed whole.
        const std::string text = fmt::format("[{}/{}] run {} {}{} rep {}  ETA {}", m_done + 1,
                                             m_total, run.ordinal, util::shorten(cell.label, 200),
                                             run.warmup ? " (warm-up)" : "", run.repetition, eta);
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

    /// A round added by a `repeat` until decided.
    void add(std::size_t runs) { m_total += runs; }

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

/// `deltas` into `probes`, each with its unit; a name already there takes the new value.
void add_probes(std::vector<store::ProbeValue>& probes, const probe::Deltas& deltas) {
    for (const auto& d : deltas) {
        const auto same =
            std::find_if(probes.begin(), probes.end(),
                         [&d](const store::ProbeValue& p) { return p.name == d.name; });
        if (same != probes.end()) {
            *same = {d.name, d.value, d.unit};
        } else {
            probes.push_back({d.name, d.value, d.unit});
        }
    }
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
/// the largest write/flush/replay lag (ms; none when the standby has caught up and reported no
/// lag since) and the bytes the slowest one has yet to replay. No lag when the query fails.
store::ReplicationProbe replication_lag(ServerSet& servers, const std::string& server) {
    auto conn = servers.probe_connection(server);
    if (!conn) {
        return {};
    }
    auto r = (*conn)->exec(
        "SELECT count(*), max(extract(epoch FROM write_lag)) * 1000, "
        "max(extract(epoch FROM flush_lag)) * 1000, max(extract(epoch FROM replay_lag)) * 1000, "
        "max(pg_wal_lsn_diff(CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() "
        "ELSE pg_current_wal_lsn() END, replay_lsn))::bigint FROM pg_stat_replication");
    if (!r || r->ntuples() != 1) {
        return {};
    }
    auto number = [&](int col) {
        return r->is_null(0, col) ? std::nullopt : std::optional(std::atof(r->value(0, col)));
    };
    store::ReplicationLag lag;
    lag.standbys = std::atoi(r->value(0, 0));
    lag.write_lag_ms = number(1);
    lag.flush_lag_ms = number(2);
    lag.replay_lag_ms = number(3);
    if (!r->is_null(0, 4)) {
        lag.bytes_behind = std::atoll(r->value(0, 4));
    }
    return {lag};
}

struct Totals {
    std::size_t ok = 0;
    std::size_t failed = 0;
    std::size_t timed_out = 0;
    double overhead_sum = 0;
    double overhead_max = 0;
};

/// The experiment and its plan, as the request gives them.
struct Prepared {
    fs::path experiment;
    experiment::ExperimentSpec spec;
    plan::Plan plan;
    const char* seed_source = "chosen";
    std::optional<store::ResultsStore> store; ///< --resume: the directory, locked
};

/// Phase "prepare": the results directory of --resume (locked), the experiment file parsed, the
/// seed chosen and the plan built (for --resume: the plan recorded there, unchanged).
Result<Prepared> prepare(const RunRequest& request) {
    Prepared p;
    p.experiment = request.experiment;
    const bool resume = !request.resume_dir.empty();
    if (resume) {
        PGLAB_TRY_ASSIGN(store::ResultsStore opened, store::ResultsStore::open(request.resume_dir));
        p.store.emplace(std::move(opened));
        p.experiment = resume_experiment(*p.store);
    }
    experiment::ParseOptions parse_options;
    parse_options.quick = request.quick || (resume && p.store->plan().quick);
    PGLAB_TRY_ASSIGN(p.spec, experiment::parse_experiment_file(p.experiment, parse_options));
    std::uint64_t seed = 0;
    if (resume) {
        seed = p.store->plan().seed.value_or(0);
        p.seed_source = "resumed";
    } else if (request.seed) {
        seed = *request.seed;
        p.seed_source = "command-line";
    } else if (p.spec.seed) {
        seed = *p.spec.seed;
        p.seed_source = "file";
    } else {
        seed = plan::choose_seed(p.spec, std::random_device{}()
                                             ^ static_cast<std::uint64_t>(pglab::wall_now_us()));
    }
    PGLAB_TRY_ASSIGN(p.plan, plan::build_plan(p.spec, seed));
    if (resume) {
        // A `repeat` until decided may have added rounds after the plan the file gives: those
        // are recorded after it, and run as recorded.
        const auto planned = plan_record(p.spec, p.plan, "", p.seed_source).runs;
        const auto& recorded = p.store->plan().runs;
        const bool extended = p.spec.until_decided && recorded.size() > planned.size();
        if (extended ? !std::equal(planned.begin(), planned.end(), recorded.begin())
                     : planned != recorded) {
            return make_error(fmt::format("\"{}\" no longer gives the plan recorded in \"{}\"",
                                          p.experiment.string(),
                                          (request.resume_dir / "plan.json").string()));
        }
        for (std::size_t i = planned.size(); i < recorded.size(); ++i) {
            const store::PlanRun& r = recorded[i];
            p.plan.runs.push_back(plan::PlannedRun{r.run, r.cell, r.repetition, r.warmup, r.round});
        }
    }
    return p;
}

void print_dry_run(const Prepared& p) {
    std::printf("%s: %zu cells, %zu runs, order %s, seed %llu\n", p.spec.name.c_str(),
                p.plan.cells.size(), p.plan.runs.size(), experiment::run_order_name(p.plan.order),
                static_cast<unsigned long long>(p.plan.seed));
    std::printf("time: %s\n", describe(estimate_plan(p.spec, p.plan)).c_str());
    if (const auto& until = p.spec.until_decided) {
        // The most: every cell run `max` times (rounds are added only for undecided claims).
        experiment::ExperimentSpec most = p.spec;
        most.repeat = until->max;
        const std::string budget = until->budget_ms > 0
                                       ? fmt::format(", or until {:.0f} s of runs",
                                                     static_cast<double>(until->budget_ms) / 1000.0)
                                       : std::string();
        if (auto longest = plan::build_plan(most, p.plan.seed)) {
            std::printf("repeat until decided: %u to %u runs of each cell%s; time at most: %s\n",
                        p.spec.repeat, until->max, budget.c_str(),
                        describe(estimate_plan(most, *longest)).c_str());
        }
    }
    for (const auto& server : p.spec.servers) { // the emulated machine, of the quick form too
        const std::string emulation =
            experiment::describe_emulation(server.memory_limit_bytes, server.sync_delay_us);
        if (!emulation.empty()) {
            std::printf("server %s: %s\n", server.name.c_str(), emulation.c_str());
        }
    }
    for (const auto& r : p.plan.runs) {
        std::printf("%4zu  cell %zu  %s  repetition %u%s\n", r.ordinal, r.cell,
                    util::shorten(p.plan.cells[r.cell].label, 200).c_str(), r.repetition,
                    r.warmup ? " (warm-up)" : "");
    }
}

/// Phase "store": a new results directory (locked), or the resumed one.
Status open_store(const RunRequest& request, Prepared& p) {
    if (p.store) {
        return {};
    }
    const fs::path dir =
        request.results_dir.empty()
            ? store::default_results_dir(p.spec.name, pglab::wall_now_us() / 1000000)
            : request.results_dir;
    PGLAB_TRY_ASSIGN(const std::string copy, masked_experiment_text(p.experiment));
    PGLAB_TRY_ASSIGN(
        store::ResultsStore created,
        store::ResultsStore::create(
            dir, copy, plan_record(p.spec, p.plan, p.experiment.string(), p.seed_source)));
    p.store.emplace(std::move(created));
    return {};
}

/// Executes the runs of a plan, one at a time.
class PlanRunner {
public:
    PlanRunner(const experiment::ExperimentSpec& spec, const plan::Plan& plan, ServerSet& servers,
               store::ResultsStore& results)
        : m_spec(spec), m_plan(plan), m_servers(servers), m_store(results),
          m_watchdog(servers.backends()) {}

    /// The run's record; nothing when SIGINT/SIGTERM cut it short (it gets no line).
    std::optional<RunRecord> execute(const plan::PlannedRun& run);

private:
    RunRecord begin(const plan::PlannedRun& run) const;
    bool prepare_servers(RunRecord& record, const plan::Cell& cell);
    /// Settles the cell's server before the run's first step (settle.hpp) and records how.
    void settle(RunRecord& record, const plan::Cell& cell);
    Status ensure_server(const std::string& name, const plan::Cell& cell, int& restarts);
    /// False when a signal interrupted the run.
    bool run_steps(RunRecord& record, const plan::RunValues& values, bool skip_all);
    /// Adds the ends of statements left waiting, known since the last call, to their steps.
    void add_late_outcomes(RunRecord& record);
    StepRecord run_step(RunRecord& record, std::size_t index, const plan::RunValues& values,
                        bool& stop_steps, bool& interrupted);
    /// Why the step is skipped in this run ("when", "once"; "" when it runs); `fingerprint` gets
    /// its expanded fields when it runs once per server. Error when its `when` cannot be read.
    Result<std::string> skip_reason(const experiment::Step& step, std::size_t index,
                                    const plan::RunValues& values, const std::string& server,
                                    std::string& fingerprint);
    /// Runs step `s.index` with its probes around it: `s` gets its elapsed time, probes,
    /// replication lag and log; nothing more after a signal.
    StepOutcome measure_step(RunRecord& record, StepRecord& s, const plan::RunValues& values);
    /// `s` as the outcome says, the run's deadline and a server that died under it taken into
    /// account; a failure fails the run and stops its later steps, but for a check.
    void settle_step(RunRecord& record, StepRecord& s, StepOutcome outcome,
                     const std::string& fingerprint, bool& stop_steps);
    void record_server(RunRecord& record, const plan::Cell& cell);
    std::optional<pg::ConnParams> progress_server(experiment::StepType type,
                                                  const std::string& server);
    std::unique_ptr<probe::WaitSampler>
    start_wait_sampler(const experiment::Step& step, bool measured, const std::string& server);
    void fail(RunRecord& record, std::optional<std::size_t> step, std::string reason) const;
    std::string timeout_reason(std::string_view what) const;

    const experiment::ExperimentSpec& m_spec;
    const plan::Plan& m_plan;
    ServerSet& m_servers;
    store::ResultsStore& m_store;
    Watchdog m_watchdog;
    StepProgress m_progress;
    LeftWaiting m_left_waiting;  ///< statements expect_blocked left waiting in this run
    NeighbourWatch m_neighbours; ///< other benchmarks' CPU during the run
    Clock::time_point m_run_start;
    Clock::time_point m_steps_start; ///< when the run's steps began (its deadline counts from it)
    std::optional<Clock::time_point> m_deadline;
    std::vector<experiment::Setting> m_settings; ///< of the cell's server, this run
};

std::optional<RunRecord> PlanRunner::execute(const plan::PlannedRun& run) {
    const plan::Cell& cell = m_plan.cells[run.cell];
    m_run_start = Clock::now();
    m_deadline.reset();
    RunRecord record = begin(run);
    m_neighbours.start();
    const bool servers_ok = prepare_servers(record, cell);
    if (servers_ok && m_spec.settle) {
        settle(record, cell);
    }
    const Clock::time_point t_server = Clock::now();
    if (m_spec.run_timeout_ms > 0) {
        // The deadline bounds the steps: making a cluster (initdb, once per server) or
        // restarting it for the cell's settings has the server's own time limits.
        m_steps_start = t_server;
        m_deadline = t_server + std::chrono::milliseconds(m_spec.run_timeout_ms);
        m_watchdog.arm(*m_deadline);
    }
    const plan::RunValues values(cell, run);
    const bool finished = run_steps(record, values, !servers_ok);
    m_watchdog.disarm();
    for (auto& [name, state] : m_servers.all()) {
        state.sessions.clear(); // sessions live for one run
    }
    m_servers.backends().clear();
    if (!finished) {
        return std::nullopt;
    }
    record_server(record, cell);
    const double total_ms = ms_between(m_run_start, Clock::now());
    record.beside = m_neighbours.since_start(total_ms / 1000.0);
    record.timings.total_ms = total_ms;
    record.timings.server_ms = ms_between(m_run_start, t_server);
    record.timings.overhead_ms = total_ms - record.timings.server_ms - record.timings.steps_ms;
    return record;
}

RunRecord PlanRunner::begin(const plan::PlannedRun& run) const {
    const plan::Cell& cell = m_plan.cells[run.cell];
    RunRecord r;
    r.experiment = m_spec.name;
    r.run = run.ordinal;
    r.cell = run.cell;
    r.values = store::bindings_json(cell.bindings);
    r.label = cell.label;
    r.repetition = run.repetition;
    r.warmup = run.warmup;
    r.round = run.round;
    r.seed = m_plan.seed;
    r.started_at = iso_now();
    r.start_time_us = pglab::wall_now_us();
    return r;
}

void PlanRunner::fail(RunRecord& record, std::optional<std::size_t> step,
                      std::string reason) const {
    if (record.failure) {
        return; // the first failure is the run's
    }
    store::RunFailure f;
    f.step = step;
    if (step) {
        f.step_key = step_key(m_spec.steps[*step], *step);
    }
    f.reason = std::move(reason);
    record.failure = std::move(f);
}

std::string PlanRunner::timeout_reason(std::string_view what) const {
    return fmt::format("run_timeout ({} ms) reached after {:.0f} ms: {}", m_spec.run_timeout_ms,
                       ms_between(m_steps_start, Clock::now()), what);
}

Status PlanRunner::ensure_server(const std::string& name, const plan::Cell& cell, int& restarts) {
    PGLAB_TRY(m_servers.ensure(name, plan::effective_settings(m_spec, cell, name), restarts));
    ServerState& state = m_servers.at(name);
    if (state.cluster) {
        // Every client backend of a throwaway cluster is pglab's: a deadline cancels them all.
        m_servers.backends().add_cluster(conn_params(*state.cluster, "postgres"));
    }
    return {};
}

/// Phase "servers for the cell": every run starts from the file's topology (a standby promoted
/// by an earlier run is made anew), a server found dead is started again (and the run says so),
/// and the cell's server runs with the cell's settings.
bool PlanRunner::prepare_servers(RunRecord& record, const plan::Cell& cell) {
    for (const std::string& name : m_servers.servers_to_remake()) {
        m_servers.discard(name);
    }
    for (auto& [name, state] : m_servers.all()) {
        (void)m_servers.reap_dead(name); // found now, or by the step of an earlier run
        if (state.death) {
            log::warning("server \"{}\" was found dead before run {} ({}): starting it again", name,
                         record.run, state.death->first);
            record.recoveries.push_back({name, state.death->first, state.death->second});
            state.death.reset();
        }
    }
    m_settings = plan::effective_settings(m_spec, cell, cell.server);
    if (auto st = ensure_server(cell.server, cell, record.timings.restarts); !st) {
        fail(record, std::nullopt, st.error().message);
        return false;
    }
    return true;
}

void PlanRunner::settle(RunRecord& record, const plan::Cell& cell) {
    auto conn = m_servers.probe_connection(cell.server);
    if (!conn) {
        store::SettleRecord unsettled;
        unsettled.busy = "no connection to settle it: " + conn.error().message;
        record.settle = std::move(unsettled);
        return;
    }
    record.settle = settle_server(**conn);
}

bool PlanRunner::run_steps(RunRecord& record, const plan::RunValues& values, bool skip_all) {
    bool stop_steps = skip_all;
    bool interrupted = false;
    for (std::size_t i = 0; i < m_spec.steps.size(); ++i) {
        record.steps.push_back(run_step(record, i, values, stop_steps, interrupted));
        if (record.steps.back().elapsed_ms) {
            record.timings.steps_ms += *record.steps.back().elapsed_ms;
        }
        add_late_outcomes(record);
    }
    if (!interrupted) {
        // A statement expect_blocked left waiting ends now, if it did not at a later step of
        // its session: released by an earlier step, or cancelled when nothing can release it.
        finish_left_waiting(m_servers, m_left_waiting);
        add_late_outcomes(record);
    }
    (void)m_left_waiting.take_all();
    return !interrupted;
}

void PlanRunner::add_late_outcomes(RunRecord& record) {
    for (const auto& e : m_left_waiting.take_ended()) {
        for (auto& s : record.steps) {
            if (auto* sql = s.as<store::SqlStep>(); sql != nullptr && s.index == e.step) {
                add_late_outcome(*sql, e.late);
            }
        }
    }
}

StepRecord PlanRunner::run_step(RunRecord& record, std::size_t i, const plan::RunValues& values,
                                bool& stop_steps, bool& interrupted) {
    const experiment::Step& step = m_spec.steps[i];
    StepRecord s;
    s.index = i;
    s.key = step_key(step, i);
    s.type = experiment::step_type_name(step.type);
    const std::string server = values.server_of(m_spec, step);
    s.server = server;
    if (!stop_steps && m_watchdog.fired()) {
        // The deadline passed between steps (during probes or a server's preparation).
        fail(record, std::nullopt, timeout_reason("the remaining steps were not run"));
        record.failure->timed_out = true;
        stop_steps = true;
    }
    if (stop_steps) {
        return s; // not-run
    }
    std::string fingerprint;
    auto skipped = skip_reason(step, i, values, server, fingerprint);
    if (skipped && !skipped->empty()) {
        s.status = StepStatus::skipped;
        s.skip_reason = *skipped;
        return s;
    }
    Status ready = skipped ? Status{} : Status(skipped.error());
    if (ready && server != values.cell().server) {
        ready = ensure_server(server, values.cell(), record.timings.restarts);
    }
    if (!ready) {
        s.status = StepStatus::failed;
        s.error = ready.error().message;
        fail(record, i, s.error);
        stop_steps = true;
        return s;
    }
    StepOutcome outcome = measure_step(record, s, values);
    if (util::stop_signalled() || outcome.status == StepStatus::interrupted) {
        // Cut short by SIGINT/SIGTERM (a cancelled statement fails): the run is not finished.
        interrupted = true;
        stop_steps = true;
        return s;
    }
    settle_step(record, s, std::move(outcome), fingerprint, stop_steps);
    return s;
}

Result<std::string> PlanRunner::skip_reason(const experiment::Step& step, std::size_t i,
                                            const plan::RunValues& values,
                                            const std::string& server, std::string& fingerprint) {
    PGLAB_TRY_ASSIGN(const bool applies, values.applies(step));
    if (!applies) {
        return std::string("when");
    }
    if (step.once) {
        auto fp = once_fingerprint(m_spec, step, values);
        fingerprint = fp ? *fp : std::string();
        ServerState& st = m_servers.at(server);
        if ((st.cluster || st.existing()) && st.once_done.count(i)
            && st.once_done[i] == fingerprint) {
            return std::string("once");
        }
    }
    return std::string();
}

StepOutcome PlanRunner::measure_step(RunRecord& record, StepRecord& s,
                                     const plan::RunValues& values) {
    const experiment::Step& step = m_spec.steps[s.index];
    const std::string& server = s.server;
    auto run_dir = m_store.run_dir(record.run);
    const fs::path log =
        run_dir
            ? *run_dir / fmt::format("{:02}-{}.log", s.index, experiment::step_type_name(step.type))
            : fs::path("/dev/null");
    const bool measured = step.measure && experiment::is_measurable(step.type);
    std::optional<probe::Snapshot> before;
    if (measured) {
        if (auto snap = snapshot(m_servers, server)) {
            before = std::move(*snap);
        }
    }
    StepContext ctx{m_spec, m_servers, values, server, log, m_deadline, record.timings.restarts};
    ctx.index = s.index;
    ctx.left_waiting = &m_left_waiting;
    const Clock::time_point ts = Clock::now();
    m_servers.notices_to(log);
    m_progress.begin(fmt::format("run {} of {}, step {} ({})", record.run + 1, m_plan.runs.size(),
                                 s.key, s.type),
                     progress_server(step.type, server));
    std::unique_ptr<probe::WaitSampler> waits = start_wait_sampler(step, measured, server);
    StepOutcome outcome = execute_step(step, ctx);
    s.elapsed_ms = ms_between(ts, Clock::now());
    const probe::Deltas wait_averages = waits ? waits->stop() : probe::Deltas{};
    m_progress.end();
    m_servers.notices_to({});
    if (util::stop_signalled() || outcome.status == StepStatus::interrupted) {
        return outcome; // no probes after a signal: the run gets no line
    }
    if (before) {
        if (auto after = snapshot(m_servers, server)) {
            s.probes.emplace();
            add_probes(*s.probes, probe::diff(*before, *after));
        }
    }
    if (!wait_averages.empty()) {
        add_probes(s.probes ? *s.probes : s.probes.emplace(), wait_averages);
    }
    if (measured && m_servers.has_standbys(server)) {
        s.replication = replication_lag(m_servers, server);
    }
    if (outcome.wrote_log) {
        s.log = m_store.relative(log);
    }
    return outcome;
}

void PlanRunner::settle_step(RunRecord& record, StepRecord& s, StepOutcome outcome,
                             const std::string& fingerprint, bool& stop_steps) {
    s.details = std::move(outcome.details);
    s.status = outcome.status;
    s.error = std::move(outcome.error);
    // The watchdog notices the deadline within moments; a shell command killed at it may end
    // first. Either way the deadline is why the step ended.
    const bool deadline_passed = m_watchdog.fired() || (m_deadline && Clock::now() >= *m_deadline);
    if (deadline_passed && (s.status == StepStatus::failed || s.status == StepStatus::timed_out)) {
        // A statement cancelled at the deadline fails as "canceling statement due to user
        // request".
        s.status = StepStatus::timed_out;
        s.error = timeout_reason(s.error);
    }
    if (s.status != StepStatus::ok) {
        // A postmaster killed a moment ago may still be ending: give it that moment.
        if (auto dead = m_servers.reap_dead(s.server, k_death_grace)) {
            // The server went away under the step: say which, and where its log is.
            const ServerState& st = m_servers.at(s.server);
            s.error += fmt::format(
                "; server \"{}\" is not running ({}); its log: {}", s.server, dead->first,
                st.cluster ? m_store.relative(st.cluster->log_path()) : std::string("(none)"));
        }
        fail(record, s.index, s.error);
        // A check that did not pass fails the run, but the later steps (and their checks)
        // still run: the statements did what they were told.
        stop_steps = !(outcome.check_failed && s.status == StepStatus::failed);
    } else if (m_spec.steps[s.index].once) {
        m_servers.at(s.server).once_done[s.index] = fingerprint;
    }
}

/// The wait-event sampler of a step that asks for one (`sample_waits`), sampling already; none
/// when the server refuses its connection (said on the terminal: the step runs unsampled).
std::unique_ptr<probe::WaitSampler> PlanRunner::start_wait_sampler(const experiment::Step& step,
                                                                   bool measured,
                                                                   const std::string& server) {
    if (!measured || step.sample_waits_ms <= 0) {
        return nullptr;
    }
    auto params = m_servers.params(server, "");
    if (!params) {
        log::warning("wait sampling: {}", params.error().message);
        return nullptr;
    }
    auto sampler = std::make_unique<probe::WaitSampler>(
        *params, std::chrono::milliseconds(step.sample_waits_ms));
    if (auto started = sampler->start(); !started) {
        log::warning("{}", started.error().message);
        return nullptr;
    }
    return sampler;
}

/// Where a step's progress is polled: the server of steps that may run CREATE INDEX, VACUUM or
/// COPY, when it is a throwaway cluster (its password is known: no prompt from the thread).
std::optional<pg::ConnParams> PlanRunner::progress_server(experiment::StepType type,
                                                          const std::string& server) {
    const bool polled = type == experiment::StepType::init || type == experiment::StepType::sql
                        || type == experiment::StepType::timed_sql;
    if (!polled || !m_servers.at(server).cluster) {
        return std::nullopt;
    }
    auto params = m_servers.params(server, "");
    return params ? std::optional<pg::ConnParams>(*params) : std::nullopt;
}

namespace {

/// A server as a run saw it: its version and installation.
store::ServerSeen seen_server(const std::string& name, const ServerState& state) {
    return {name, state.version, state.version_num,
            state.cluster ? state.cluster->bin_dir().string() : std::string()};
}

} // namespace

/// The cell's server as the run saw it: version, installation, cluster number, settings.
void PlanRunner::record_server(RunRecord& record, const plan::Cell& cell) {
    ServerState& main_server = m_servers.at(cell.server);
    store::ServerRecord& srv = record.server;
    srv.seen = seen_server(cell.server, main_server);
    srv.cluster = main_server.clusters_created;
    // The emulated machine, as this run's form of the file gave it (a quick form may shrink it).
    if (const experiment::ServerSpec* spec = m_spec.find_server(cell.server)) {
        srv.memory_limit_bytes = spec->memory_limit_bytes;
        srv.sync_delay_us = spec->sync_delay_us;
    }
    for (const auto& st : m_settings) {
        srv.requested[st.name] = st.value.setting_text();
    }
    if (!m_settings.empty() && main_server.running()) {
        if (auto conn = m_servers.probe_connection(cell.server)) {
            for (const auto& st : m_settings) {
                if (st.name.find('.') != std::string::npos) {
                    continue;
                }
                // The name as a quoted identifier: it never becomes SQL text of its own.
                std::string lowered = st.name;
                std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                               [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
                auto ident = (*conn)->escape_identifier(lowered);
                if (!ident) {
                    continue;
                }
                auto r = (*conn)->exec("SHOW " + *ident);
                if (r && r->ntuples() == 1) {
                    srv.settings[st.name] = r->value(0, 0);
                }
            }
        }
    }
    // Every server the run reached (standbys, other servers of its steps), so that reports know
    // their versions too.
    record.servers.clear();
    for (const auto& [name, state] : m_servers.all()) {
        if (!state.version.empty()) {
            record.servers.push_back(seen_server(name, state));
        }
    }
}

/// The server logs are already in the results directory (ServerSet::keep_logs); the clusters go.
void remove_clusters(ServerSet& servers) {
    for (auto& [name, state] : servers.all()) {
        state.drop_connections();
        if (state.cluster) {
            (void)state.cluster->remove();
        }
    }
}

/// Every `version` the experiment names that no installation has is fetched (release binaries,
/// as `pglab server fetch` does), saying so; --dry-run only says it will be (`to_fetch`). A
/// version that cannot be fetched is left to the checks before the start, which name it.
void fetch_missing_versions(const experiment::ExperimentSpec& spec, const RunRequest& request,
                            bool& to_fetch) {
    std::set<std::string> asked;
    for (const auto& s : spec.servers) {
        if (!request.fetch_version || s.is_existing() || !s.bin_dir.empty() || s.version.empty()
            || s.version.find('/') != std::string::npos || !asked.insert(s.version).second
            || server::resolve_installation(s.version)) {
            continue;
        }
        if (request.dry_run) {
            if (request.fetch_version(s.version, true)) {
                to_fetch = true;
                log::info("PostgreSQL {} is not installed: the run will fetch it (pglab server "
                          "fetch {})",
                          s.version, s.version);
            }
            continue;
        }
        log::info("PostgreSQL {} is not installed: fetching it (pglab server fetch {})", s.version,
                  s.version);
        if (!request.fetch_version(s.version, false)) {
            log::warning("could not fetch PostgreSQL {} for server \"{}\"", s.version, s.name);
        }
    }
}

/// Adds a finished run to `totals`; warns about one that did not end ok. False when it did not.
bool count_run(const RunRecord& record, const plan::PlannedRun& run, const plan::Cell& cell,
               Progress& progress, Totals& totals) {
    totals.overhead_sum += record.timings.overhead_ms;
    totals.overhead_max = std::max(totals.overhead_max, record.timings.overhead_ms);
    const store::RunStatus status = record.status();
    if (status == store::RunStatus::ok) {
        ++totals.ok;
        return true;
    }
    ++(status == store::RunStatus::timed_out ? totals.timed_out : totals.failed);
    progress.end();
    log::warning("run {} ({}) {}: {}", run.ordinal, util::shorten(cell.label, 200),
                 status == store::RunStatus::timed_out ? "timed out" : "failed",
                 util::shorten(record.failure ? record.failure->reason : "", 2000));
    return false;
}

/// A `repeat` until decided, once the planned runs are done: a round of the cells whose claims
/// are still undecided, recorded in plan.json before it runs. None (and the log says why) when
/// every claim is decided, when each such cell has `max` measured runs, or when the budget is
/// spent.
bool plan_next_round(Prepared& p, const RunRequest& request, store::ResultsStore& results,
                     Progress& progress) {
    if (!p.spec.until_decided || !request.undecided) {
        return false;
    }
    const experiment::RepeatUntilDecided& until = *p.spec.until_decided;
    progress.end();
    const auto undecided = request.undecided(results.dir());
    if (!undecided) {
        log::warning("could not tell which claims are decided ({}): no runs are added",
                     undecided.error().message);
        return false;
    }
    if (undecided->cells.empty()) {
        log::info("repeat until decided: every claim is decided");
        return false;
    }
    if (until.budget_ms > 0 && undecided->runs_ms >= static_cast<double>(until.budget_ms)) {
        log::info("repeat until decided: the budget ({:.0f} s) is spent with claims undecided; "
                  "the report says why each stayed so",
                  static_cast<double>(until.budget_ms) / 1000.0);
        return false;
    }
    std::vector<std::uint32_t> measured(p.plan.cells.size(), 0);
    for (const plan::PlannedRun& run : p.plan.runs) {
        measured[run.cell] += run.warmup ? 0 : 1;
    }
    std::vector<std::size_t> cells;
    for (const std::size_t c : undecided->cells) {
        if (c < measured.size() && measured[c] < until.max) {
            cells.push_back(c);
        }
    }
    if (cells.empty()) {
        log::info("repeat until decided: claims are still undecided after {} runs of each of "
                  "their cells (max); the report says why each stayed so",
                  until.max);
        return false;
    }
    const std::vector<plan::PlannedRun> added = plan::add_round(
        p.plan, cells,
        p.plan.order == experiment::RunOrder::paired ? plan::claim_blocks(p.spec, p.plan.cells)
                                                     : std::vector<std::vector<std::size_t>>{});
    std::vector<store::PlanRun> recorded;
    for (const plan::PlannedRun& run : added) {
        recorded.push_back({run.ordinal, run.cell, run.repetition, run.warmup, run.round});
    }
    if (auto st = results.add_planned_runs(recorded); !st) {
        log::print(st.error());
        p.plan.runs.resize(p.plan.runs.size() - added.size());
        return false;
    }
    progress.add(added.size());
    log::info("repeat until decided: round {} runs {} cell(s) whose claims are undecided",
              added.front().round, cells.size());
    return true;
}

/// Runs the plan's runs not finished yet, in plan order, appending each one's line, then (for a
/// `repeat` until decided) the rounds plan_next_round() adds, until the end, a signal
/// (`interrupted`), a line that cannot be written, or a failure with on_error = "stop".
PlanOutcome run_plan(Prepared& p, const RunRequest& request, ServerSet& servers,
                     store::ResultsStore& results, Progress& progress, Totals& totals,
                     bool& interrupted) {
    PlanOutcome outcome = PlanOutcome::complete;
    warn_if_machine_busy();
    PlanRunner runner(p.spec, p.plan, servers, results);
    for (std::size_t i = 0;; ++i) {
        if (i == p.plan.runs.size()) {
            if (outcome != PlanOutcome::complete) {
                break;
            }
            if (util::stop_signalled()) { // a round may still be due: --resume adds it
                interrupted = p.spec.until_decided.has_value();
                break;
            }
            if (!plan_next_round(p, request, results, progress)) {
                break;
            }
        }
        const plan::PlannedRun run = p.plan.runs[i]; // a copy: a round may grow the plan
        if (results.finished().count(run.ordinal)) {
            continue;
        }
        if (util::stop_signalled()) {
            interrupted = true;
            break;
        }
        const plan::Cell& cell = p.plan.cells[run.cell];
        progress.starting(run, cell);
        std::optional<RunRecord> record = runner.execute(run);
        if (!record) {
            interrupted = true; // an interrupted run gets no line: --resume runs it again
            break;
        }
        if (auto st = results.append_run(*record); !st) {
            progress.end();
            log::print(st.error());
            return PlanOutcome::failed;
        }
        progress.finished();
        if (!count_run(*record, run, cell, progress, totals)) {
            outcome = PlanOutcome::failed;
            if (p.spec.on_error == experiment::OnError::stop) {
                break;
            }
        }
    }
    return outcome;
}

/// The closing line: runs by status, restarts per server, the orchestration's overhead.
void log_totals(const Totals& totals, ServerSet& servers, std::size_t finished,
                std::size_t planned) {
    const std::size_t ran = totals.ok + totals.failed + totals.timed_out;
    std::string restarts;
    for (auto& [name, state] : servers.all()) {
        restarts += fmt::format("{}{}: {}", restarts.empty() ? "" : ", ", name, state.restarts);
    }
    log::info("{} run(s) finished ({} ok, {} failed, {} timed out), {} of {} in the plan; "
              "restarts: {}; orchestration overhead per run: mean {:.1f} ms, max {:.1f} ms",
              ran, totals.ok, totals.failed, totals.timed_out, finished, planned, restarts,
              ran > 0 ? totals.overhead_sum / static_cast<double>(ran) : 0.0, totals.overhead_max);
}

} // namespace

PlanOutcome run_experiment(const RunRequest& request) {
    auto prepared = prepare(request);
    if (!prepared) {
        log::print(prepared.error());
        return PlanOutcome::not_started;
    }
    Prepared& p = *prepared;
    bool to_fetch = false; // --dry-run: a version the run would fetch
    fetch_missing_versions(p.spec, request, to_fetch);
    ServerSet servers(p.spec);
    if (to_fetch) {
        log::warning("the checks that need the installations (setting names) are not made: the "
                     "run makes them once it has fetched the missing versions");
    } else if (auto st = check_before_start(p.spec, p.plan, servers); !st) {
        log::print(st.error());
        return PlanOutcome::not_started;
    }
    if (request.dry_run) {
        print_dry_run(p);
        return PlanOutcome::complete;
    }
    // SIGINT and SIGTERM only ask the plan to stop (however often they come), so that the clusters
    // are stopped and removed by their destructors. The scopes of a bench or init step nest
    // inside it and change nothing.
    const util::StopSignals signals(util::StopSignals::Repeat::is_noted);
    server::remove_stale_clusters(std::filesystem::temp_directory_path());
    if (auto st = open_store(request, p); !st) {
        log::print(st.error());
        return PlanOutcome::not_started;
    }
    store::ResultsStore& results = *p.store;
    servers.keep_logs([&results](const std::string& server, int cluster) {
        return results.server_log(server, cluster);
    });
    // From here on the run's messages are kept with its results (they carry no password:
    // connection strings are redacted wherever they are printed).
    const log::CopyToFile log_copy((results.dir() / "pglab.log").string());
    const std::size_t already = results.finished().size();
    if (!request.resume_dir.empty()) {
        log::info("resuming \"{}\": {} of {} runs already finished", results.dir().string(),
                  already, p.plan.runs.size());
    }

    Progress progress(p.plan.runs.size(), already);
    Totals totals;
    bool interrupted = false;
    PlanOutcome outcome = run_plan(p, request, servers, results, progress, totals, interrupted);
    progress.end();
    remove_clusters(servers);
    log_totals(totals, servers, results.finished().size(), p.plan.runs.size());
    if (interrupted) {
        log::warning("interrupted: continue with \"pglab run --resume {}\"",
                     results.dir().string());
        outcome = PlanOutcome::interrupted;
    }
    std::printf("results: %s\n", results.dir().string().c_str());
    std::fflush(stdout);
    return outcome;
}

} // namespace pglab::lab::run
