// to_json / write_json: the JSON form of a run. Field names are a public interface
// (docs/json-schema.md): add fields freely, rename only with a new "version".
#include "output/json_export.hpp"

#include "output/percentile_block.hpp"
#include "util/named_values.hpp"
#include "util/output_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace pglab::output {

namespace {

using nlohmann::json;

/// A finite double as a number, anything else as null (JSON has no NaN).
json number(double v) {
    return std::isfinite(v) ? json(v) : json(nullptr);
}

/// Microseconds as seconds, divided rather than multiplied by 1e-6 (inexact): the nearest double
/// to the decimal, which JSON then prints as written (2.951973, not 2.9519729999999997).
double seconds_of(usec_t us) {
    return static_cast<double>(us) / 1e6;
}

/// Whole microseconds as milliseconds, likewise.
double ms_of(double us) {
    return us / 1000.0;
}

/// A count ratio in percent, null when the denominator is 0.
json percent(int64_t part, int64_t whole) {
    return whole > 0 ? json(100.0 * static_cast<double>(part) / static_cast<double>(whole))
                     : json(nullptr);
}

/// Distribution of a histogram: summary, percentiles (µs), buckets and the lossless form.
json histogram_json(const stats::LatencyHistogram& h) {
    json percentiles = json::object();
    for (double p : k_report_percentiles) {
        percentiles[fmt::format("p{}", p)] = h.value_at_percentile(p);
    }
    percentiles["p99.99"] = h.value_at_percentile(99.99);
    json buckets = json::array();
    for (const auto& [value, count] : h.buckets()) {
        buckets.push_back(json::array({value, count}));
    }
    return json{
        {"count", h.count()},       {"min_us", h.min()},
        {"max_us", h.max()},        {"mean_us", h.mean()},
        {"stddev_us", h.stddev()},  {"percentiles_us", std::move(percentiles)},
        {"clamped", h.clamped()},   {"buckets", std::move(buckets)},
        {"encoded", h.serialize()},
    };
}

/// pgbench's SimpleStats summary in ms (null fields when empty).
json simple_stats_ms(const stats::SimpleStats& s) {
    if (s.count == 0) {
        return json{{"count", 0},
                    {"average_ms", nullptr},
                    {"stddev_ms", nullptr},
                    {"min_ms", nullptr},
                    {"max_ms", nullptr}};
    }
    return json{{"count", s.count},
                {"average_ms", 0.001 * s.mean()},
                {"stddev_ms", 0.001 * s.stddev()},
                {"min_ms", ms_of(s.min)},
                {"max_ms", ms_of(s.max)}};
}

/// Transaction counters shared by the totals and each script.
json tx_counts(const bench::TxStats& s) {
    const int64_t all = s.count + s.skipped + s.failures();
    return json{
        {"transactions", s.count},
        {"skipped", s.skipped},
        {"failed", s.failures()},
        {"failed_percent", percent(s.failures(), all)},
        {"serialization_failures", s.serialization_failures},
        {"deadlock_failures", s.deadlock_failures},
        {"other_failures", s.other_failures},
        {"retried", s.retried},
        {"retries", s.retries},
        {"late", s.late},
    };
}

/// Per worker thread, the CPU it was pinned to, or null.
json thread_cpus_json(const std::vector<int>& cpus) {
    json out = json::array();
    for (const int cpu : cpus) {
        out.push_back(cpu >= 0 ? json(cpu) : json(nullptr));
    }
    return out;
}

json options_json(const bench::RunConfig& config, const bench::RunResult& result) {
    const auto& scripts = config.scripts.scripts();
    return json{
        {"transaction_type", scripts.size() == 1 ? scripts[0].desc : "multiple scripts"},
        {"scale", result.scale},
        {"partition_method",
         result.partition_method.empty() ? json(nullptr) : json(result.partition_method)},
        {"partitions", result.partitions},
        {"query_mode", util::name_of(script::k_query_modes, config.query_mode)},
        {"clients", config.clients},
        {"threads", config.threads},
        {"transactions_per_client",
         config.duration_s > 0 ? json(nullptr) : json(config.transactions)},
        {"duration_s", config.duration_s > 0 ? json(config.duration_s) : json(nullptr)},
        {"connect_per_transaction", config.connect_per_tx},
        {"rate_tps", config.rate_tps > 0 ? json(config.rate_tps) : json(nullptr)},
        {"latency_limit_ms", config.latency_limit_us > 0
                                 ? json(static_cast<double>(config.latency_limit_us) / 1000.0)
                                 : json(nullptr)},
        {"max_tries", config.max_tries},
        {"failures_detailed", config.failures_detailed},
        {"continue_on_error", config.continue_on_error},
        {"progress_s", config.progress_s},
        {"report_per_command", config.report_per_command},
        {"random_seed", config.random_seed_given ? json(config.random_seed) : json(nullptr)},
        {"thread_cpus", thread_cpus_json(result.thread_cpus)},
        {"thread_socket_io", result.thread_socket_io},
    };
}

json totals_json(const bench::RunConfig& config, const bench::RunResult& result) {
    const bench::TxStats& t = result.total;
    const double duration_s = seconds_of(result.bench_duration_us);
    const int64_t all = t.count + t.skipped + t.failures();
    json out = tx_counts(t);
    out["duration_s"] = duration_s;
    out["tps"] = number(static_cast<double>(t.count) / duration_s);
    out["latency_measured"] = config.measure_latency();
    if (config.measure_latency()) {
        out["latency_average_ms"] =
            t.latency_us.count > 0 ? json(0.001 * t.latency_us.mean()) : json(nullptr);
        out["latency_stddev_ms"] =
            t.latency_us.count > 0 ? json(0.001 * t.latency_us.stddev()) : json(nullptr);
    } else {
        out["latency_average_ms"] =
            all > 0 ? number(0.001 * static_cast<double>(result.bench_duration_us) * config.clients
                             / static_cast<double>(all))
                    : json(nullptr);
        out["latency_stddev_ms"] = nullptr;
    }
    if (config.rate_tps > 0) {
        out["lag_average_ms"] =
            t.count > 0 ? json(0.001 * t.lag_us.sum / static_cast<double>(t.count)) : nullptr;
        out["lag_max_ms"] = ms_of(static_cast<double>(t.lag_us.max));
    } else {
        out["lag_average_ms"] = nullptr;
        out["lag_max_ms"] = nullptr;
    }
    if (config.connect_per_tx) {
        out["connection_time_kind"] = "average";
        const int64_t n = t.count + t.failures();
        out["connection_time_ms"] =
            n > 0 ? json(0.001 * static_cast<double>(result.conn_total_us) / static_cast<double>(n))
                  : json(nullptr);
    } else {
        out["connection_time_kind"] = "initial";
        out["connection_time_ms"] = 0.001 * static_cast<double>(result.conn_total_us);
    }
    out["aborted_clients"] = result.aborted_clients;
    out["interrupted"] = result.interrupted;
    return out;
}

json script_json(const bench::RunConfig& config, const bench::RunResult& result, size_t i,
                 double duration_s) {
    const script::Script& script = config.scripts.scripts()[i];
    static const bench::ScriptStats k_empty;
    const bench::ScriptStats& ss = i < result.scripts.size() ? result.scripts[i] : k_empty;
    json out = tx_counts(ss.tx);
    out["index"] = i + 1;
    out["desc"] = script.desc;
    out["weight"] = script.weight;
    out["tps"] = number(static_cast<double>(ss.tx.count) / duration_s);
    out["latency"] = simple_stats_ms(ss.tx.latency_us);
    out["histogram"] = histogram_json(ss.tx.histogram);
    json commands = json::array();
    for (size_t c = 0; c < script.commands.size(); ++c) {
        static const bench::CommandStats k_no_stats;
        const bench::CommandStats& cs = c < ss.commands.size() ? ss.commands[c] : k_no_stats;
        commands.push_back(json{
            {"index", c + 1},
            {"line", script.commands[c].line},
            {"text", script.commands[c].first_line},
            {"executions", cs.elapsed_us.count},
            {"average_ms",
             cs.elapsed_us.count > 0 ? json(0.001 * cs.elapsed_us.mean()) : json(nullptr)},
            {"failures", cs.failures},
            {"retries", cs.retries},
        });
    }
    out["commands"] = std::move(commands);
    return out;
}

/// Server settings as an object of strings (current_setting() text, units included).
json settings_json(const bench::RunResult& result) {
    json out = json::object();
    for (const auto& [name, value] : result.settings) {
        out[name] = value;
    }
    return out;
}

/// The per-second series. Each point covers one wall-clock second; `duration_s` is the part
/// of it inside the measured period (less than 1 at the edges), and tps is per that part;
/// `elapsed_s` is where that part starts, from the run's start (0 for the first point).
json series_json(const bench::RunResult& result) {
    json points = json::array();
    const usec_t begin = result.start_wall_us;
    const usec_t end = result.start_wall_us + result.bench_duration_us;
    for (const bench::SecondStats& s : result.series) {
        const usec_t from = std::max(begin, s.epoch_s * 1000000);
        const usec_t to = std::min(end, (s.epoch_s + 1) * 1000000);
        const double covered_s = to > from ? seconds_of(to - from) : 0.0;
        const bool any = s.count > 0;
        points.push_back(json{
            {"time_s", s.epoch_s},
            {"elapsed_s", seconds_of(from - begin)},
            {"duration_s", covered_s},
            {"transactions", s.count},
            {"tps",
             covered_s > 0 ? number(static_cast<double>(s.count) / covered_s) : json(nullptr)},
            {"failures", s.failures},
            {"skipped", s.skipped},
            {"latency_mean_ms",
             any ? json(s.latency_sum_us / static_cast<double>(s.count) / 1000.0) : json(nullptr)},
            {"latency_p99_ms",
             any ? json(static_cast<double>(s.latency_p99_us) / 1000.0) : json(nullptr)},
            {"latency_max_ms",
             any ? json(static_cast<double>(s.latency_max_us) / 1000.0) : json(nullptr)},
        });
    }
    return json{{"interval_s", 1}, {"points", std::move(points)}};
}

/// The fleet's per-process section (only written when several processes ran the benchmark).
json processes_json(const bench::FleetStats& fleet) {
    json out = json::array();
    for (const bench::ProcessStats& p : fleet.processes) {
        out.push_back(json{
            {"rank", p.rank},
            {"host", p.host},
            {"pid", p.pid},
            {"clients", p.clients},
            {"threads", p.threads},
            {"transactions", p.transactions},
            {"tps", number(p.tps)},
            {"cpu_s", p.cpu_s},
            {"cpu_share", number(p.cpu_share)},
            {"cpu_bound", p.cpu_bound},
            {"start_skew_us", p.start_skew_us},
            {"lost", p.lost},
        });
    }
    return json{{"merge_us", fleet.merge_us}, {"processes", std::move(out)}};
}

/// Whether an array holds only scalars or arrays of scalars (histogram buckets): printed on
/// one line, which keeps a long run's document small (a bucket costs ~12 bytes, not ~45).
bool is_flat(const json& array) {
    return std::all_of(array.begin(), array.end(), [](const json& e) {
        return !e.is_object()
               && (!e.is_array() || std::none_of(e.begin(), e.end(), [](const json& x) {
                      return x.is_structured();
                  }));
    });
}

/// dump(2), except that flat arrays stay on one line.
void write_pretty(const json& v, size_t indent, std::string& out) {
    const bool object = v.is_object();
    if (v.empty() || !(object || (v.is_array() && !is_flat(v)))) {
        out += v.dump();
        return;
    }
    out += object ? "{\n" : "[\n";
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
        out += first ? "" : ",\n";
        first = false;
        out.append(indent + 2, ' ');
        if (object) {
            out += json(it.key()).dump();
            out += ": ";
        }
        write_pretty(*it, indent + 2, out);
    }
    out += '\n';
    out.append(indent, ' ');
    out += object ? '}' : ']';
}

} // namespace

nlohmann::json to_json(const bench::RunConfig& config, const bench::RunResult& result) {
    const double duration_s = seconds_of(result.bench_duration_us);
    json scripts = json::array();
    for (size_t i = 0; i < config.scripts.scripts().size(); ++i) {
        scripts.push_back(script_json(config, result, i, duration_s));
    }
    json out{
        {"version", k_json_version},
        {"client_version", result.client_version},
        {"server_version", result.server_version},
        {"server_version_num", result.server_version_num},
        {"settings", settings_json(result)},
        {"start_time_us", result.start_wall_us},
        {"options", options_json(config, result)},
        {"totals", totals_json(config, result)},
        {"latency", histogram_json(result.total.histogram)},
        {"service_time",
         config.rate_tps > 0 ? histogram_json(result.total.service_histogram) : json(nullptr)},
        {"wakeup_error",
         result.wakeup_error.count() > 0 ? histogram_json(result.wakeup_error) : json(nullptr)},
        {"scripts", std::move(scripts)},
        {"series", series_json(result)},
    };
    if (!result.fleet.processes.empty()) {
        out["fleet"] = processes_json(result.fleet);
    }
    return out;
}

Status write_json(const std::string& path, const bench::RunConfig& config,
                  const bench::RunResult& result) {
    std::string text;
    write_pretty(to_json(config, result), 0, text);
    text += '\n';
    return util::write_output_file(path, text);
}

} // namespace pglab::output
