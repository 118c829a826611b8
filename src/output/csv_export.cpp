// to_csv / write_csv: a flat view of to_json()'s totals and latency percentiles.
#include "output/csv_export.hpp"

#include "output/json_export.hpp"
#include "util/output_file.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>

namespace pglab::output {

namespace {

using nlohmann::json;

/// A JSON scalar as a CSV field: null is empty, strings are quoted when needed.
std::string field(const json& v) {
    if (v.is_null()) {
        return {};
    }
    if (v.is_boolean()) {
        return v.get<bool>() ? "true" : "false";
    }
    if (!v.is_string()) {
        return v.dump();
    }
    const auto s = v.get<std::string>();
    if (s.find_first_of(",\"\r\n") == std::string::npos) {
        return s;
    }
    return util::doubling_quoted(s, '"');
}

/// Milliseconds from a µs figure of a histogram (null when the histogram is empty).
json ms(const json& histogram, const json& value_us) {
    if (histogram.at("count").get<int64_t>() == 0) {
        return nullptr;
    }
    return 0.001 * value_us.get<double>();
}

} // namespace

std::string to_csv(const bench::RunConfig& config, const bench::RunResult& result) {
    const json doc = to_json(config, result);
    const json& opt = doc.at("options");
    const json& tot = doc.at("totals");
    const json& lat = doc.at("latency");
    const json& pct = lat.at("percentiles_us");
    const std::pair<std::string_view, json> columns[] = {
        {"version", doc.at("version")},
        {"start_time_us", doc.at("start_time_us")},
        {"server_version", doc.at("server_version")},
        {"transaction_type", opt.at("transaction_type")},
        {"scale", opt.at("scale")},
        {"query_mode", opt.at("query_mode")},
        {"clients", opt.at("clients")},
        {"threads", opt.at("threads")},
        {"rate_tps", opt.at("rate_tps")},
        {"duration_s", tot.at("duration_s")},
        {"transactions", tot.at("transactions")},
        {"failed", tot.at("failed")},
        {"serialization_failures", tot.at("serialization_failures")},
        {"deadlock_failures", tot.at("deadlock_failures")},
        {"other_failures", tot.at("other_failures")},
        {"skipped", tot.at("skipped")},
        {"retried", tot.at("retried")},
        {"retries", tot.at("retries")},
        {"late", tot.at("late")},
        {"tps", tot.at("tps")},
        {"latency_average_ms", tot.at("latency_average_ms")},
        {"latency_stddev_ms", tot.at("latency_stddev_ms")},
        {"latency_min_ms", ms(lat, lat.at("min_us"))},
        {"latency_p50_ms", ms(lat, pct.at("p50"))},
        {"latency_p90_ms", ms(lat, pct.at("p90"))},
        {"latency_p99_ms", ms(lat, pct.at("p99"))},
        {"latency_p99.9_ms", ms(lat, pct.at("p99.9"))},
        {"latency_max_ms", ms(lat, lat.at("max_us"))},
        {"lag_average_ms", tot.at("lag_average_ms")},
        {"lag_max_ms", tot.at("lag_max_ms")},
        {"connection_time_ms", tot.at("connection_time_ms")},
        {"aborted_clients", tot.at("aborted_clients")},
        {"interrupted", tot.at("interrupted")},
    };
    std::string header;
    std::string data;
    for (const auto& [name, value] : columns) {
        if (!header.empty()) {
            header += ',';
            data += ',';
        }
        header += name;
        data += field(value);
    }
    return header + "\n" + data + "\n";
}

Status write_csv(const std::string& path, const bench::RunConfig& config,
                 const bench::RunResult& result) {
    const std::string text = to_csv(config, result);
    return util::write_output_file(path, text);
}

} // namespace pglab::output
