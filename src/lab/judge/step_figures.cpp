// Metric extraction by step type (docs/results-format.md, docs/json-schema.md) and probe deltas.
#include "lab/judge/step_figures.hpp"

#include "lab/store/bench_figures.hpp"
#include "lab/store/run_record.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace pglab::lab::judge {

namespace {

using store::RunRecord;

constexpr double k_bytes_per_mb = 1e6;       // MB as probes and reports use it: 10^6 bytes
constexpr double k_bytes_per_block = 8192.0; // PostgreSQL's default BLCKSZ

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool contains(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

class StepCollector {
public:
    explicit StepCollector(StepData& step) : m_step(step) {}

    void add(const MetricInfo& info, std::optional<double> value, const RunRecord& run) {
        if (!value || !std::isfinite(*value)) {
            return;
        }
        add_value(info, *value, run);
    }

    /// A proportion: `part` of `whole` as a percentage, with `whole` as its count.
    void add_proportion(const MetricInfo& info, double part, double whole, const RunRecord& run) {
        if (!(whole > 0) || !std::isfinite(part) || !std::isfinite(whole)) {
            return;
        }
        if (MetricValues* m = add_value(info, 100.0 * part / whole, run)) {
            m->by_cell[static_cast<int64_t>(run.cell)].back().trials = whole;
        }
    }

private:
    /// Adds `value`; the metric it went to, or nullptr when its unit conflicts.
    MetricValues* add_value(const MetricInfo& info, double value, const RunRecord& run) {
        MetricValues& m = metric(info);
        if (m.info.unit != info.unit) {
            // Shown in MB or not: values that were scaled differently cannot share a metric.
            if ((m.info.unit == "MB") != (info.unit == "MB")) {
                m_step.unit_conflicts[info.id].push_back(static_cast<int64_t>(run.run));
                return nullptr;
            }
            if (m.info.unit.empty()) {
                m.info = info; // a recorded unit names what an older line left unnamed
            }
        }
        m.by_cell[static_cast<int64_t>(run.cell)].push_back(
            RunFigure{.value = value, .run = static_cast<int64_t>(run.run), .round = run.round});
        return &m;
    }

    MetricValues& metric(const MetricInfo& info) {
        for (auto& m : m_step.metrics) {
            if (m.info.id == info.id) {
                return m;
            }
        }
        m_step.metrics.push_back(MetricValues{info, {}});
        return m_step.metrics.back();
    }

    StepData& m_step;
};

namespace catalogue = experiment::metrics;

/// The bench document's percentiles and the metrics they are.
struct Percentile {
    const char* key;
    const MetricInfo* info;
};

const Percentile k_percentiles[] = {
    {"p50", &catalogue::latency_p50},
    {"p90", &catalogue::latency_p90},
    {"p99", &catalogue::latency_p99},
    {"p99.9", &catalogue::latency_p999},
};

/// pgbench 9.x's "tps = N (including connections establishing)": the transactions over the
/// whole time from before the first connection, i.e. the measured period and the initial
/// connection time; with -C the connections are inside the measured period already.
std::optional<double> tps_including_connections(const store::BenchFigures& b) {
    if (!b.transactions || !b.duration_s) {
        return std::nullopt;
    }
    const double connecting_s = b.connection_time_kind == "initial" && b.connection_time_ms
                                    ? *b.connection_time_ms / 1000.0
                                    : 0.0;
    const double total_s = *b.duration_s + connecting_s;
    return total_s > 0 ? std::optional<double>(*b.transactions / total_s) : std::nullopt;
}

/// The bench step's figures of one run; its successful transactions, when known.
std::optional<double> collect_bench(StepData& step, StepCollector& c, const store::BenchStep& bench,
                                    const RunRecord& run) {
    const auto figures = store::bench_figures(bench);
    if (!figures) {
        return std::nullopt;
    }
    const store::BenchFigures& b = *figures;
    step.client_costs[static_cast<int64_t>(run.run)].placement = b.placement;
    c.add(catalogue::tps, b.tps, run);
    c.add(catalogue::latency_avg, b.latency_average_ms, run);
    if (b.latency_count && *b.latency_count > 0) {
        for (const auto& p : k_percentiles) {
            const auto us = b.percentiles_us.find(p.key);
            c.add(*p.info,
                  us != b.percentiles_us.end() ? std::optional<double>(us->second / 1000.0)
                                               : std::nullopt,
                  run);
        }
    }
    c.add(catalogue::connection, b.connection_time_ms, run);
    c.add(catalogue::failed, b.failed, run);
    c.add(catalogue::tps_incl_connections, tps_including_connections(b), run);

    if (b.histogram) {
        stats::LatencyHistogram one;
        if (stats::LatencyHistogram::parse(*b.histogram, one)) {
            auto& merged = step.histograms[static_cast<int64_t>(run.cell)];
            if (!merged) {
                merged = std::make_shared<stats::LatencyHistogram>();
            } else if (merged.use_count() > 1) {
                // Shared with figures handed out earlier (StepFigures::steps()): theirs stays.
                merged = std::make_shared<stats::LatencyHistogram>(*merged);
            }
            merged->merge(one);
        } else {
            step.bad_histograms.push_back(static_cast<int64_t>(run.run));
        }
    }
    RunSeries series{static_cast<int64_t>(run.run),
                     static_cast<int64_t>(run.cell),
                     static_cast<int64_t>(run.repetition),
                     {}};
    for (const store::BenchFigures::Point& point : b.series) {
        // Edge seconds are partial; they would draw misleading spikes.
        if (!point.duration_s || *point.duration_s >= 0.999) {
            series.points.emplace_back(point.elapsed_s, point.tps);
        }
    }
    if (!series.points.empty()) {
        step.series.push_back(std::move(series));
    }
    return b.transactions;
}

void collect_explain(StepCollector& c, const store::ExplainStep& step, const RunRecord& run) {
    if (!step.explain) {
        return;
    }
    const store::ExplainSummary& e = *step.explain;
    c.add(catalogue::execution, e.execution_ms, run);
    c.add(catalogue::planning, e.planning_ms, run);
    const auto hit = static_cast<double>(e.shared_hit_blocks);
    const double total = hit + static_cast<double>(e.shared_read_blocks);
    c.add_proportion(catalogue::hit_ratio, hit, total, run);
    c.add(catalogue::blocks, total, run);
    c.add(catalogue::blocks_mb, total * k_bytes_per_block / k_bytes_per_mb, run);
    c.add(catalogue::heap_fetches, static_cast<double>(e.heap_fetches), run);
}

std::optional<double> as_number(const std::optional<std::int64_t>& n) {
    return n ? std::optional<double>(static_cast<double>(*n)) : std::nullopt;
}

/// Replication lag after a step on a primary with standbys (levels, not deltas: see
/// docs/results-format.md): the slowest standby's lags and the WAL it has yet to replay.
void collect_replication(StepCollector& c, const store::StepRecord& s, const RunRecord& run) {
    if (!s.replication || !s.replication->lag) {
        return;
    }
    const store::ReplicationLag& r = *s.replication->lag;
    c.add(catalogue::replication_write_lag, r.write_lag_ms, run);
    c.add(catalogue::replication_flush_lag, r.flush_lag_ms, run);
    c.add(catalogue::replication_replay_lag, r.replay_lag_ms, run);
    const auto behind = as_number(r.bytes_behind);
    c.add(catalogue::replication_behind,
          behind ? std::optional<double>(*behind / k_bytes_per_mb) : std::nullopt, run);
}

/// A probe's value in report units, with its MetricInfo; `unit` is the probe's own (recorded, or
/// implied by its name in older results: store::probe_unit).
std::pair<MetricInfo, double> probe_metric(const std::string& name, double value,
                                           const std::string& unit) {
    MetricInfo info{"probe:" + name, name, "", Direction::neutral, false};
    if (unit == "bytes") {
        info.unit = "MB";
        value /= k_bytes_per_mb;
        info.direction = Direction::lower_is_better;
        info.headline = name == "wal.bytes" || name == "wal_bytes";
    } else if (unit == "ms" || unit == "s") {
        info.unit = unit;
        if (ends_with(name, "_" + unit) || ends_with(name, "." + unit)) {
            info.title = name.substr(0, name.size() - unit.size() - 1);
        }
    } else if (unit == "sessions" || unit == "processes" || unit == "%") {
        info.unit = unit;
    }
    return {info, value};
}

double to_seconds(const std::string& name, double value) {
    return ends_with(name, "_ms") || ends_with(name, ".ms") ? value / 1000.0 : value;
}

/// A probe counting checkpoints (docs/probes.md; the pg_stat_bgwriter names of older results).
bool counts_checkpoints(const std::string& name) {
    return name == "checkpointer.num_timed" || name == "checkpointer.num_requested"
           || ends_with(name, "checkpoints_timed") || ends_with(name, "checkpoints_req");
}

/// CPU seconds of one side ("server" or "client"): its `<side>.cpu_s` sum when present, else
/// the sum of its user and system parts (older names in ms included).
std::optional<double> cpu_seconds(const store::ProbeValues& probes, std::string_view side) {
    std::optional<double> total;
    std::optional<double> parts;
    for (const store::ProbeValue& p : probes) {
        const std::string& name = p.name;
        if (!contains(name, "cpu") || !contains(name, side) || ends_with(name, "_pct")) {
            continue; // a share of the step's time (server.cpu_pct) is not CPU seconds
        }
        const double v = to_seconds(name, p.value);
        if (ends_with(name, "cpu_s")) {
            total = v;
        } else {
            parts = parts.value_or(0.0) + v;
        }
    }
    return total ? total : parts;
}

/// Probes that measure the same quantity (docs/probes.md): the exact one first.
constexpr std::pair<const char*, const char*> k_same_quantity[] = {
    {"wal.bytes", "wal.stat_bytes"},
};
constexpr double k_disagreement_factor = 10.0;
constexpr double k_disagreement_floor = 1e6; // below 1 MB either way, page headers and noise

std::optional<double> probe_value(const store::ProbeValues& probes, std::string_view name) {
    for (const store::ProbeValue& p : probes) {
        if (p.name == name) {
            return p.value;
        }
    }
    return std::nullopt;
}

void check_agreement(StepData& step, const store::ProbeValues& probes, const RunRecord& run) {
    for (const auto& [a, b] : k_same_quantity) {
        const auto va = probe_value(probes, a);
        const auto vb = probe_value(probes, b);
        if (!va || !vb) {
            continue;
        }
        const double low = std::min(std::fabs(*va), std::fabs(*vb));
        const double high = std::max(std::fabs(*va), std::fabs(*vb));
        if (high >= k_disagreement_floor && high > k_disagreement_factor * low) {
            step.disagreements.push_back(
                Disagreement{static_cast<int64_t>(run.run), a, *va, b, *vb});
        }
    }
}

/// The probes' metrics of one step of one run; the client's CPU seconds, when measured.
std::optional<double> collect_probes(StepData& step, StepCollector& c, const store::StepRecord& s,
                                     const RunRecord& run, int cores) {
    if (!s.probes) {
        return std::nullopt;
    }
    const store::ProbeValues& probes = *s.probes;
    std::optional<double> blks_hit;
    std::optional<double> blks_read;
    std::optional<double> checkpoints_done;
    double checkpoints = 0;
    for (const store::ProbeValue& p : probes) {
        const std::string& name = p.name;
        const double v = p.value;
        if (name == "elapsed_s") {
            continue;
        }
        if (ends_with(name, "blks_hit")) {
            blks_hit = v;
        } else if (ends_with(name, "blks_read")) {
            blks_read = v;
        }
        if (name == "checkpointer.num_done") {
            checkpoints_done = v;
        } else if (counts_checkpoints(name)) {
            checkpoints += v;
        }
        // CPU seconds are shown as the server/client CPU sums; their shares of the step's time
        // (host.cpu_pct) are metrics of their own. A 0 is a value like any other (heap fetches
        // after VACUUM): leaving it out would drop the answer and bias the mean.
        if (!contains(name, "cpu") || ends_with(name, "_pct")) {
            const auto [info, value] = probe_metric(name, v, store::probe_unit(p));
            c.add(info, value, run);
        }
    }
    check_agreement(step, probes, run);
    const auto server_cpu = cpu_seconds(probes, "server");
    const auto client_cpu = cpu_seconds(probes, "client");
    c.add(catalogue::server_cpu, server_cpu, run);
    c.add(catalogue::client_cpu, client_cpu, run);
    if (blks_hit && blks_read) {
        c.add_proportion(catalogue::db_hit_ratio, *blks_hit, *blks_hit + *blks_read, run);
    }
    // num_done (18) counts completed checkpoints; num_timed also counts skipped idle ones.
    if (checkpoints_done.value_or(checkpoints) > 0) {
        step.checkpoint_runs.push_back(static_cast<int64_t>(run.run));
    }
    const auto& elapsed_ms = s.elapsed_ms;
    if (client_cpu && cores > 0 && elapsed_ms && *elapsed_ms > 0) {
        ClientCost& cost = step.client_costs[static_cast<int64_t>(run.run)];
        cost.machine_share = *client_cpu / (*elapsed_ms / 1000.0 * cores);
        cost.beside_server = server_cpu.has_value();
    }
    return client_cpu;
}

/// A wait event no sample of a run saw was seen by 0 sessions in that run, not unknown: the
/// runs that were sampled (they have wait.samples) and lack a wait.* metric get a 0 for it, so
/// that a cell's mean is over all its sampled runs.
void fill_unseen_waits(StepData& step) {
    const MetricValues* sampled = find_metric(step, "probe:wait.samples");
    if (sampled == nullptr) {
        return;
    }
    const auto sampled_runs = sampled->by_cell;
    for (auto& m : step.metrics) {
        if (!m.info.id.starts_with("probe:wait.") || m.info.id == "probe:wait.samples") {
            continue;
        }
        for (const auto& [cell, runs] : sampled_runs) {
            std::vector<RunFigure>& have = m.by_cell[cell];
            for (const RunFigure& sampled_run : runs) {
                const bool seen = std::any_of(have.begin(), have.end(), [&](const RunFigure& f) {
                    return f.run == sampled_run.run;
                });
                if (!seen) {
                    have.push_back(RunFigure{.run = sampled_run.run, .round = sampled_run.round});
                }
            }
            std::sort(have.begin(), have.end(),
                      [](const RunFigure& a, const RunFigure& b) { return a.run < b.run; });
        }
    }
}

/// The entry of step `key`, added (with its plan index and type) when it has none yet.
StepData& step_for(std::vector<StepData>& steps, const std::string& key, int64_t index,
                   const std::string& type) {
    for (auto& st : steps) {
        if (st.key == key) {
            return st;
        }
    }
    StepData st;
    st.index = index;
    st.key = key;
    st.type = type;
    st.kind = experiment::step_type_named(type);
    steps.push_back(std::move(st));
    return steps.back();
}

/// The metrics of one step of one measured run: its kind's own, then its probes'.
void collect_step(StepData& step, const store::StepRecord& s, const RunRecord& run, int cores) {
    StepCollector c(step);
    using experiment::StepType;
    std::optional<double> transactions;            // a bench step's
    switch (step.kind.value_or(StepType::shell)) { // an unknown kind: its time, as a shell's
    case StepType::bench:
        if (const auto* bench = s.as<store::BenchStep>()) {
            transactions = collect_bench(step, c, *bench, run);
        }
        break;
    case StepType::timed_sql:
        if (const auto* timed = s.as<store::TimedSqlStep>()) {
            c.add(catalogue::client_ms, timed->client_ms, run);
            c.add(catalogue::server_ms, timed->server_ms, run);
            c.add(catalogue::rows, as_number(timed->rows), run);
        }
        break;
    case StepType::explain:
        if (const auto* explain = s.as<store::ExplainStep>()) {
            collect_explain(c, *explain, run);
        }
        break;
    case StepType::sleep:
        break;
    default:
        c.add(catalogue::elapsed, s.elapsed_ms, run);
        break;
    }
    collect_replication(c, s, run);
    const auto client_cpu = collect_probes(step, c, s, run, cores);
    if (client_cpu && transactions && *transactions > 0) {
        c.add(catalogue::client_cpu_per_tx, *client_cpu / *transactions * 1e6, run);
    }
    for (const std::string& note : s.probe_notes) {
        step.probe_notes.emplace_back(static_cast<int64_t>(run.run), note);
    }
}

/// The step type's own metrics first (in the order they came), then the sums derived from
/// probes, then the raw probes by name: the same order whichever run showed them first.
void order_metrics(StepData& step) {
    const auto group = [](const MetricValues& m) {
        if (m.info.id.starts_with(experiment::k_probe_prefix)) {
            return 2;
        }
        const bool derived = m.info.id == catalogue::server_cpu.id
                             || m.info.id == catalogue::client_cpu.id
                             || m.info.id == catalogue::client_cpu_per_tx.id
                             || m.info.id == catalogue::db_hit_ratio.id;
        return derived ? 1 : 0;
    };
    std::stable_sort(step.metrics.begin(), step.metrics.end(),
                     [&](const MetricValues& a, const MetricValues& b) {
                         const int ga = group(a);
                         const int gb = group(b);
                         if (ga != gb) {
                             return ga < gb;
                         }
                         return ga == 2 && a.info.id < b.info.id;
                     });
}

} // namespace

StepFigures::StepFigures(const std::optional<store::PlanRecord>& plan, int cores) : m_cores(cores) {
    // Every step of the plan gets an entry, even when no run measured it yet.
    if (plan) {
        for (const store::PlanStep& s : plan->steps) {
            if (!s.key.empty()) {
                step_for(m_steps, s.key, static_cast<int64_t>(s.index), s.type);
            }
        }
    }
}

void StepFigures::add(const RunRecord& run) {
    const bool measured = !run.warmup && run.status() == store::RunStatus::ok;
    for (const store::StepRecord& s : run.steps) {
        if (s.key.empty()) {
            continue;
        }
        StepData& step = step_for(m_steps, s.key, static_cast<int64_t>(s.index), s.type);
        if (measured && s.status == store::StepStatus::ok) {
            collect_step(step, s, run, m_cores);
        }
    }
}

std::vector<StepData> StepFigures::steps() const {
    std::vector<StepData> steps = m_steps;
    for (auto& step : steps) {
        fill_unseen_waits(step);
    }
    std::sort(steps.begin(), steps.end(),
              [](const StepData& a, const StepData& b) { return a.index < b.index; });
    for (auto& step : steps) {
        order_metrics(step);
    }
    return steps;
}

std::vector<StepData> collect_steps(const store::ResultsDir& results, int cores) {
    StepFigures figures(results.plan, cores);
    for (const auto& finished : results.runs) {
        figures.add(finished.record);
    }
    return figures.steps();
}

std::vector<double> values_of(const std::vector<RunFigure>& runs) {
    std::vector<double> out;
    out.reserve(runs.size());
    for (const RunFigure& f : runs) {
        out.push_back(f.value);
    }
    return out;
}

std::vector<double> MetricValues::values_in(int64_t cell) const {
    const auto runs = by_cell.find(cell);
    return runs == by_cell.end() ? std::vector<double>{} : values_of(runs->second);
}

std::vector<int64_t> MetricValues::runs_in(int64_t cell) const {
    std::vector<int64_t> out;
    if (const auto runs = by_cell.find(cell); runs != by_cell.end()) {
        for (const RunFigure& f : runs->second) {
            out.push_back(f.run);
        }
    }
    return out;
}

Sample sample_in(const MetricValues& m, int64_t cell) {
    const auto runs = m.by_cell.find(cell);
    if (runs == m.by_cell.end()) {
        return sample_of({});
    }
    const std::vector<double> values = values_of(runs->second);
    // A proportion with the count of each run's: on the log-odds scale.
    const bool counted = std::all_of(runs->second.begin(), runs->second.end(),
                                     [](const RunFigure& f) { return f.trials > 0; });
    if (!m.info.proportion || !counted) {
        return sample_of(values);
    }
    std::vector<double> trials;
    for (const RunFigure& f : runs->second) {
        trials.push_back(f.trials);
    }
    return proportion_sample_of(values, trials);
}

Summary summary_in(const MetricValues& m, int64_t cell) {
    const std::vector<double> values = m.values_in(cell);
    return values.empty() ? summarize({}) : summarize(values, sample_in(m, cell));
}

const MetricValues* find_metric(const StepData& step, std::string_view id) {
    for (const auto& m : step.metrics) {
        if (m.info.id == id) {
            return &m;
        }
    }
    return nullptr;
}

} // namespace pglab::lab::judge
