// lab/store: the figures of a pglab.bench/1 document.
#include "lab/store/bench_figures.hpp"

#include "lab/store/json_fields.hpp"

namespace pglab::lab::store {

namespace f = fields;

std::optional<BenchFigures> bench_figures(const BenchStep& step) {
    const nlohmann::json& b = step.document;
    if (!b.is_object()) {
        return std::nullopt;
    }
    BenchFigures fig;
    const nlohmann::json& totals = f::value(b, "totals");
    fig.tps = f::number(totals, "tps");
    fig.transactions = f::number(totals, "transactions");
    fig.duration_s = f::number(totals, "duration_s");
    fig.connection_time_kind = f::text(totals, "connection_time_kind");
    fig.latency_average_ms = f::number(totals, "latency_average_ms");
    fig.connection_time_ms = f::number(totals, "connection_time_ms");
    fig.failed = f::number(totals, "failed");
    fig.interrupted = f::boolean(totals, "interrupted", false);
    fig.aborted_clients = f::integer(totals, "aborted_clients").value_or(0);
    fig.client_version = f::text(b, "client_version");
    const nlohmann::json& latency = f::value(b, "latency");
    fig.latency_count = f::number(latency, "count");
    if (const nlohmann::json& p = f::value(latency, "percentiles_us"); p.is_object()) {
        for (const auto& [name, value] : p.items()) {
            if (value.is_number()) {
                fig.percentiles_us[name] = value.get<double>();
            }
        }
    }
    fig.histogram = f::optional_text(latency, "encoded");
    const nlohmann::json& points = f::value(f::value(b, "series"), "points");
    if (points.is_array()) {
        for (const nlohmann::json& point : points) {
            const auto t = f::number(point, "elapsed_s");
            const auto tps = f::number(point, "tps");
            if (t && tps) {
                fig.series.push_back({*t, *tps, f::number(point, "duration_s")});
            }
        }
    }
    return fig;
}

} // namespace pglab::lab::store
