// lab/run: PlanRunner.
#include "lab/run/plan_runner.hpp"

#include "lab/probe/probe.hpp"
#include "lab/probe/vacuum_verbose.hpp"
#include "lab/probe/wal_agreement.hpp"
#include "lab/run/settle.hpp"
#include "lab/run/sql_step.hpp"
#include "lab/run/step_events.hpp"
#include "lab/run/step_options.hpp"
#include "lab/run/step_statistics.hpp"
#include "lab/server/installation.hpp"
#include "lab/server/throwaway_cluster.hpp"
#include "util/clock.hpp"
#include "util/log.hpp"
#include "util/stop_signal.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <set>

namespace pglab::lab::run {

namespace fs = std::filesystem;

namespace {

/// How long a failed step's server may take to be seen dead (SIGKILL to zombie).
constexpr auto k_death_grace = std::chrono::milliseconds(500);

/// How long the closing snapshot waits for the client backends a step started to exit (800
/// clients end within a second or two here).
constexpr auto k_step_backends_limit = std::chrono::seconds(10);

/// `notes` added to `into`, each once.
void add_notes(std::vector<std::string>& into, std::vector<std::string> notes) {
    for (std::string& note : notes) {
        if (std::find(into.begin(), into.end(), note) == into.end()) {
            into.push_back(std::move(note));
        }
    }
}

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
    const ServerState& st = servers.at(server);
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

} // namespace

std::optional<RunRecord> PlanRunner::execute(const plan::PlannedRun& run) {
    const plan::Cell& cell = m_plan.cells[run.cell];
    m_run_start = Clock::now();
    m_deadline.reset();
    RunRecord record = begin(run);
    m_neighbours.start();
    const bool servers_ok = prepare_servers(record, cell);
    const Clock::time_point t_server = Clock::now();
    if (m_spec.run_timeout_ms > 0) {
        // The deadline bounds the steps: making a cluster (initdb, once per server) or
        // restarting it for the cell's settings has the server's own time limits.
        m_steps_start = t_server;
        m_deadline = t_server + std::chrono::milliseconds(m_spec.run_timeout_ms);
        m_watchdog.arm(*m_deadline);
    }
    const plan::RunValues values(cell, run);
    // Setup (a once init) runs before the run settles: its writes and its dirty pages are not
    // the measured steps' to carry.
    const std::size_t setup = m_spec.settle ? setup_steps() : 0;
    bool stop_steps = !servers_ok;
    bool finished = run_steps(record, values, 0, setup, stop_steps);
    double settle_ms = 0; // the server's time, as preparing it is: neither steps nor overhead
    if (finished && servers_ok && m_spec.settle && !m_watchdog.fired()) {
        const Clock::time_point settle_start = Clock::now();
        settle(record, cell);
        settle_ms = ms_between(settle_start, Clock::now());
        for (std::size_t i = 0; i < setup; ++i) {
            if (record.steps[i].status == StepStatus::ok) {
                record.settle->after.push_back(record.steps[i].key);
            }
        }
        if (m_deadline) { // the run's time limit is its steps'
            const auto settled_for = std::chrono::duration_cast<Clock::duration>(
                std::chrono::duration<double, std::milli>(settle_ms));
            *m_deadline += settled_for;
            m_steps_start += settled_for;
            m_watchdog.arm(*m_deadline);
        }
    }
    finished = finished && run_steps(record, values, setup, m_spec.steps.size(), stop_steps);
    if (finished) {
        finish_steps(record);
    }
    m_watchdog.disarm();
    m_servers.end_run();
    if (!finished) {
        return std::nullopt;
    }
    record_server(record, cell);
    const double total_ms = ms_between(m_run_start, Clock::now());
    record.beside = m_neighbours.since_start(total_ms / 1000.0);
    record.timings.total_ms = total_ms;
    record.timings.server_ms = ms_between(m_run_start, t_server) + settle_ms;
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
    const ServerState& state = m_servers.at(name);
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
    std::vector<std::string> names;
    for (const auto& [name, state] : m_servers.all()) {
        names.push_back(name);
    }
    for (const std::string& name : names) {
        (void)m_servers.reap_dead(name); // found now, or by the step of an earlier run
        if (const auto death = m_servers.take_death(name)) {
            log::warning("server \"{}\" was found dead before run {} ({}): starting it again", name,
                         record.run, death->first);
            record.recoveries.push_back({name, death->first, death->second});
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
    SettleLimits limits;
    const experiment::ServerSpec* server = m_spec.find_server(cell.server);
    limits.existing = server != nullptr && server->is_existing();
    limits.waiting = [&](const std::string& what) {
        log::info("settling server \"{}\" before run {}: waiting up to {} s for {} ({} in the "
                  "file skips settling)",
                  cell.server, record.run, limits.bound.count() / 1000, what, "settle = false");
    };
    record.settle = settle_server(**conn, limits);
}

std::size_t PlanRunner::setup_steps() const {
    std::size_t n = 0;
    while (n < m_spec.steps.size() && m_spec.steps[n].once && !m_spec.steps[n].measure) {
        ++n;
    }
    return n;
}

bool PlanRunner::run_steps(RunRecord& record, const plan::RunValues& values, std::size_t from,
                           std::size_t to, bool& stop_steps) {
    bool interrupted = false;
    for (std::size_t i = from; i < to; ++i) {
        record.steps.push_back(run_step(record, i, values, stop_steps, interrupted));
        if (record.steps.back().elapsed_ms) {
            record.timings.steps_ms += *record.steps.back().elapsed_ms;
        }
        add_late_outcomes(record);
    }
    if (interrupted) {
        (void)m_left_waiting.take_all();
    }
    return !interrupted;
}

void PlanRunner::finish_steps(RunRecord& record) {
    // A statement expect_blocked left waiting ends now, if it did not at a later step of its
    // session: released by an earlier step, or cancelled when nothing can release it.
    finish_left_waiting(m_servers, m_left_waiting);
    add_late_outcomes(record);
    (void)m_left_waiting.take_all();
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
        if (m_servers.once_done(server, i, fingerprint)) {
            return std::string("once");
        }
    }
    return std::string();
}

fs::path PlanRunner::step_log(const RunRecord& record, const StepRecord& s) const {
    const auto run_dir = m_store.run_dir(record.run);
    return run_dir ? *run_dir
                         / fmt::format("{:02}-{}.log", s.index,
                                       experiment::step_type_name(m_spec.steps[s.index].type))
                   : fs::path("/dev/null");
}

PlanRunner::StepBaseline PlanRunner::open_step_statistics(StepRecord& s) {
    StepBaseline out;
    // The statistics of earlier steps' sessions in before the step, not during it.
    add_notes(s.probe_notes, flush_session_statistics(m_servers, s.server));
    if (auto snap = snapshot(m_servers, s.server)) {
        out.snapshot = std::move(*snap);
    }
    if (auto conn = m_servers.probe_connection(s.server)) {
        out.backends = client_backends(**conn).value_or(std::set<int>{});
    }
    return out;
}

void PlanRunner::blame_crash(StepOutcome& outcome) {
    // A step that failed other than by a check may have failed by a crash not logged yet.
    const auto crash_wait = outcome.ok() || outcome.check_failed ? std::chrono::milliseconds(0)
                                                                 : std::chrono::milliseconds(1000);
    const auto crash = m_crashes.crashed(m_servers, crash_wait);
    if (!crash || util::stop_signalled()) {
        return;
    }
    // What the step measured ran across a restart of its server: the step fails, naming it,
    // whatever it said itself (a bench's "2 client(s) aborted" is this crash's doing).
    outcome.fail(fmt::format("server \"{}\" crashed during the step and its postmaster "
                             "restarted it: \"{}\" (its log: {}){}",
                             crash->server, crash->line, m_store.relative(crash->log),
                             outcome.error.empty() ? "" : "; the step: " + outcome.error));
    outcome.check_failed = false; // the run stops here, as for any failed step
}

StepOutcome PlanRunner::run_watched(RunRecord& record, StepRecord& s, const plan::RunValues& values,
                                    const fs::path& log, bool measured,
                                    probe::Deltas& wait_averages) {
    const experiment::Step& step = m_spec.steps[s.index];
    StepContext ctx{m_spec, m_servers, values, s.server, log, m_deadline, record.timings.restarts};
    ctx.index = s.index;
    ctx.left_waiting = &m_left_waiting;
    const Clock::time_point ts = Clock::now();
    m_servers.notices_to(log);
    m_progress.begin(fmt::format("run {} of {}, step {} ({})", record.run + 1, m_plan.runs.size(),
                                 s.key, s.type),
                     progress_server(step.type, s.server));
    std::unique_ptr<probe::WaitSampler> waits = start_wait_sampler(step, measured, s.server);
    const std::string_view type_name = experiment::step_type_name(step.type);
    step_event("begin", record.run, s.key, type_name);
    StepOutcome outcome = execute_step(step, ctx);
    step_event("end", record.run, s.key, type_name);
    blame_crash(outcome);
    s.elapsed_ms = ms_between(ts, Clock::now());
    wait_averages = waits ? waits->stop() : probe::Deltas{};
    m_progress.end();
    m_servers.notices_to({});
    return outcome;
}

StepOutcome PlanRunner::measure_step(RunRecord& record, StepRecord& s,
                                     const plan::RunValues& values) {
    const experiment::Step& step = m_spec.steps[s.index];
    const fs::path log = step_log(record, s);
    const bool measured = step.measure && experiment::is_measurable(step.type);
    // From before the probes of the step's start: a crash while they ran fails the step too (its
    // session then finds the server in recovery).
    m_crashes.mark(m_servers);
    const StepBaseline baseline = measured ? open_step_statistics(s) : StepBaseline{};
    probe::Deltas wait_averages;
    StepOutcome outcome = run_watched(record, s, values, log, measured, wait_averages);
    const probe::VerboseFigures verbose =
        probe::read_verbose_notices(m_servers.take_info_notices());
    if (util::stop_signalled() || outcome.status == StepStatus::interrupted) {
        return outcome; // no probes after a signal: the run gets no line
    }
    if (baseline.snapshot) {
        close_step_statistics(s, baseline);
        add_verbose_figures(s, verbose);
    }
    if (!wait_averages.empty()) {
        add_probes(s.probes ? *s.probes : s.probes.emplace(), wait_averages);
    }
    if (measured && m_servers.has_standbys(s.server)) {
        s.replication = replication_lag(m_servers, s.server);
    }
    if (outcome.wrote_log) {
        s.log = m_store.relative(log);
    }
    return outcome;
}

void PlanRunner::add_verbose_figures(StepRecord& s, const probe::VerboseFigures& verbose) {
    if (verbose.samples.empty() && verbose.unread.empty()) {
        return;
    }
    probe::Deltas figures;
    for (const probe::Sample& sample : verbose.samples) {
        figures.push_back({sample.name, sample.value, sample.unit});
    }
    add_probes(s.probes ? *s.probes : s.probes.emplace(), figures);
    add_notes(s.probe_notes, verbose.unread);
}

void PlanRunner::close_step_statistics(StepRecord& s, const StepBaseline& baseline) {
    const std::string& server = s.server;
    add_notes(s.probe_notes, flush_session_statistics(m_servers, server));
    if (auto conn = m_servers.probe_connection(server)) {
        if (auto note = wait_for_step_backends(**conn, baseline.backends,
                                               session_backends(m_servers, server),
                                               k_step_backends_limit)) {
            add_notes(s.probe_notes, {std::move(*note)});
        }
    }
    auto after = snapshot(m_servers, server);
    if (!after) {
        return;
    }
    const probe::Snapshot& before = *baseline.snapshot;
    probe::Deltas deltas = probe::diff(before, *after);
    if (auto withheld = probe::withhold_unflushed_wal(before, *after, deltas)) {
        add_notes(s.probe_notes, {std::move(*withheld)});
    }
    s.probes.emplace();
    add_probes(*s.probes, deltas);
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
        m_servers.mark_once_done(s.server, s.index, fingerprint);
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
    const ServerState& main_server = m_servers.at(cell.server);
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
                auto ident = (*conn)->escape_identifier(util::ascii_lower(st.name));
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

} // namespace pglab::lab::run
