// lab/experiment: the metric catalogue.
#include "lab/experiment/metric_catalogue.hpp"

#include <algorithm>

namespace pglab::lab::experiment {

namespace metrics {

using D = Direction;

const MetricInfo tps{"tps", "tps", "", D::higher_is_better, true};
/// pgbench 9.x's headline tps, "including connections establishing": the transactions over the
/// measured period and the time to open the connections before it.
const MetricInfo tps_incl_connections{"tps_incl_connections", "tps including connection time", "",
                                      D::higher_is_better, false};
const MetricInfo latency_avg{"latency_avg_ms", "latency average", "ms", D::lower_is_better, true};
const MetricInfo latency_p50{"latency_p50_ms", "latency p50", "ms", D::lower_is_better, false};
const MetricInfo latency_p90{"latency_p90_ms", "latency p90", "ms", D::lower_is_better, false};
const MetricInfo latency_p99{"latency_p99_ms", "latency p99", "ms", D::lower_is_better, false};
const MetricInfo latency_p999{"latency_p99.9_ms", "latency p99.9", "ms", D::lower_is_better, false};
const MetricInfo connection{"connection_ms", "connection time", "ms", D::lower_is_better, false};
const MetricInfo failed{"failed", "failed transactions", "", D::lower_is_better, false};
const MetricInfo client_ms{"client_ms", "client time", "ms", D::lower_is_better, true};
const MetricInfo server_ms{"server_ms", "server time", "ms", D::lower_is_better, true};
const MetricInfo rows{"rows", "rows", "", D::neutral, false};
const MetricInfo execution{"execution_ms", "execution time", "ms", D::lower_is_better, true};
const MetricInfo planning{"planning_ms", "planning time", "ms", D::lower_is_better, false};
const MetricInfo hit_ratio{"buffer_hit_pct",   "buffer hit ratio", "%", D::higher_is_better, true,
                           /*proportion=*/true};
const MetricInfo blocks{"blocks", "blocks touched", "", D::lower_is_better, false};
const MetricInfo blocks_mb{"blocks_mb", "blocks touched × 8192 bytes", "MB", D::lower_is_better,
                           false};
const MetricInfo heap_fetches{"heap_fetches", "heap fetches", "", D::lower_is_better, false};
const MetricInfo elapsed{"elapsed_ms", "elapsed", "ms", D::lower_is_better, true};
const MetricInfo server_cpu{"server_cpu_s", "server CPU", "s", D::lower_is_better, false};
const MetricInfo client_cpu{"client_cpu_s", "client CPU", "s", D::lower_is_better, false};
const MetricInfo client_cpu_per_tx{"client_cpu_us_per_tx", "client CPU per transaction", "µs",
                                   D::lower_is_better, false};
const MetricInfo db_hit_ratio{
    "db_buffer_hit_pct", "buffer hit ratio, pg_stat_database", "%", D::higher_is_better, false,
    /*proportion=*/true};
const MetricInfo replication_write_lag{"replication.write_lag_ms", "replication write lag", "ms",
                                       D::lower_is_better, false};
const MetricInfo replication_flush_lag{"replication.flush_lag_ms", "replication flush lag", "ms",
                                       D::lower_is_better, false};
const MetricInfo replication_replay_lag{"replication.replay_lag_ms", "replication replay lag", "ms",
                                        D::lower_is_better, true};
const MetricInfo replication_behind{"replication.behind_mb", "replication: WAL not yet replayed",
                                    "MB", D::lower_is_better, false};

} // namespace metrics

bool measures_itself(StepType type) {
    return type == StepType::bench || type == StepType::timed_sql || type == StepType::explain;
}

std::vector<const MetricInfo*> step_metrics(StepType type) {
    using namespace metrics;
    switch (type) {
    case StepType::bench:
        return {
            &tps,          &latency_avg, &latency_p50, &latency_p90,          &latency_p99,
            &latency_p999, &connection,  &failed,      &tps_incl_connections, &client_cpu_per_tx};
    case StepType::timed_sql:
        return {&client_ms, &server_ms, &rows};
    case StepType::explain:
        return {&execution, &planning, &hit_ratio, &blocks, &blocks_mb, &heap_fetches};
    case StepType::sleep:
        return {};
    default:
        return {&elapsed};
    }
}

std::vector<const MetricInfo*> probe_metrics() {
    using namespace metrics;
    return {&server_cpu,
            &client_cpu,
            &db_hit_ratio,
            &replication_write_lag,
            &replication_flush_lag,
            &replication_replay_lag,
            &replication_behind};
}

const std::vector<std::string>& probe_families() {
    // vacuum and analyze: a step's VACUUM / ANALYZE VERBOSE figures (probe/vacuum_verbose.hpp).
    static const std::vector<std::string> k_families = {
        "analyze", "backend", "bgwriter", "checkpointer", "client", "db", "host",
        "io",      "server",  "sync",     "vacuum",       "wait",   "wal"};
    return k_families;
}

std::string_view probe_family(std::string_view id) {
    if (!id.starts_with(k_probe_prefix)) {
        return {};
    }
    const std::string_view name = id.substr(k_probe_prefix.size());
    const auto dot = name.find('.');
    return dot == std::string_view::npos ? std::string_view() : name.substr(0, dot);
}

const MetricInfo* step_metric_info(StepType type, std::string_view id) {
    for (const auto& list : {step_metrics(type), probe_metrics()}) {
        for (const MetricInfo* m : list) {
            if (m->id == id) {
                return m;
            }
        }
    }
    return nullptr;
}

bool gives_metric(StepType type, std::string_view id) {
    if (id.starts_with(k_probe_prefix)) {
        const auto& families = probe_families();
        const std::string_view family = probe_family(id);
        return !family.empty() && id.size() > k_probe_prefix.size() + family.size() + 1
               && std::find(families.begin(), families.end(), family) != families.end();
    }
    return step_metric_info(type, id) != nullptr;
}

std::vector<std::string> metric_ids(StepType type) {
    std::vector<std::string> ids;
    for (const MetricInfo* m : step_metrics(type)) {
        ids.push_back(m->id);
    }
    for (const MetricInfo* m : probe_metrics()) {
        ids.push_back(m->id);
    }
    ids.push_back(std::string(k_probe_prefix) + "NAME");
    return ids;
}

} // namespace pglab::lab::experiment
