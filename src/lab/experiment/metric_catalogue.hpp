// lab/experiment: the metrics each step kind gives the report (docs/reports.md), in one
// catalogue: their ids, titles, units and directions. Claims name them (`metric = "tps"`) and are
// checked against it when the file is read; the report takes its definitions from it. Probe
// values are metrics too, named "probe:" and the probe's name (docs/probes.md).
#pragma once

#include "lab/experiment/experiment_spec.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::experiment {

/// Which way is better, for verdicts ("faster", "slower").
enum class Direction : std::uint8_t { higher_is_better, lower_is_better, neutral };

struct MetricInfo {
    std::string id;    ///< stable: "tps", "latency_avg_ms", "probe:wal.bytes"
    std::string title; ///< for people: "tps", "latency average"
    std::string unit;  ///< "ms", "MB" (10^6 bytes), "%", "" (a count or a rate in the title)
    Direction direction = Direction::neutral;
    bool headline = false; ///< charted and compared by default
    /// A percentage of a count (hits of the blocks touched): it lies in 0–100%, and its runs are
    /// read on the log-odds scale so that no interval leaves that range (statistics.hpp).
    bool proportion = false;
};

/// The prefix of probe metrics: "probe:" + the probe's name.
inline constexpr std::string_view k_probe_prefix = "probe:";

namespace metrics {

// bench
extern const MetricInfo tps;
extern const MetricInfo tps_incl_connections;
extern const MetricInfo latency_avg;
extern const MetricInfo latency_p50;
extern const MetricInfo latency_p90;
extern const MetricInfo latency_p99;
extern const MetricInfo latency_p999;
extern const MetricInfo connection;
extern const MetricInfo failed;
// timed-sql
extern const MetricInfo client_ms;
extern const MetricInfo server_ms;
extern const MetricInfo rows;
// explain
extern const MetricInfo execution;
extern const MetricInfo planning;
extern const MetricInfo hit_ratio;
extern const MetricInfo blocks;
extern const MetricInfo blocks_mb;
extern const MetricInfo heap_fetches;
// the other kinds but sleep
extern const MetricInfo elapsed;
// any measured step: sums of its probes, and the replication lag on a primary with standbys
extern const MetricInfo server_cpu;
extern const MetricInfo client_cpu;
/// bench: client_cpu over the successful transactions, in µs
extern const MetricInfo client_cpu_per_tx;
extern const MetricInfo db_hit_ratio;
extern const MetricInfo replication_write_lag;
extern const MetricInfo replication_flush_lag;
extern const MetricInfo replication_replay_lag;
extern const MetricInfo replication_behind;

} // namespace metrics

/// Whether a step of `type` measures something of its own (bench, timed-sql, explain), rather
/// than only taking time: its figures are the ones repetitions, spread and outliers are about.
bool measures_itself(StepType type);

/// The metrics a step of `type` gives of its own (not its probes'), in the report's order.
std::vector<const MetricInfo*> step_metrics(StepType type);

/// The metrics any measured step gives from its probes (and "probe:NAME" for each probe).
std::vector<const MetricInfo*> probe_metrics();

/// The families of probe names ("wal" of "wal.bytes"; docs/probes.md).
const std::vector<std::string>& probe_families();

/// The family of a probe metric's name ("wal" of "probe:wal.bytes"; "" when it has no dot).
std::string_view probe_family(std::string_view id);

/// Whether a step of `type` can give the metric `id` (its own, a probe sum, or "probe:NAME" of a
/// known family).
bool gives_metric(StepType type, std::string_view id);

/// The catalogue entry of the metric `id` a step of `type` gives (its own or a probe sum);
/// nullptr for a "probe:NAME" or an id it does not give.
const MetricInfo* step_metric_info(StepType type, std::string_view id);

/// The ids `gives_metric` accepts for `type`, for messages and suggestions ("probe:NAME" as
/// such).
std::vector<std::string> metric_ids(StepType type);

} // namespace pglab::lab::experiment
