// lab/store: the figures of a pglab.bench/1 document.
#include "lab/store/bench_figures.hpp"

#include "lab/store/json_fields.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace pglab::lab::store {

namespace {

namespace f = fields;
using nlohmann::json;

/// Reads the fields of one object of the document, noting each value of the wrong type.
class Reader {
public:
    Reader(const json& object, std::string path, std::vector<std::string>& unread)
        : m_object(object), m_path(std::move(path)), m_unread(unread) {}

    std::optional<double> number(const char* key, std::string_view consequence = "") {
        return read(key, &json::is_number, "a number", consequence, f::number);
    }

    std::optional<std::int64_t> integer(const char* key) {
        return read(key, &json::is_number_integer, "an integer", "", f::integer);
    }

    std::optional<std::string> text(const char* key) {
        return read(key, &json::is_string, "a string", "", f::optional_text);
    }

    std::optional<bool> boolean(const char* key) {
        if (!present(key) || wrong(key, m_object[key].is_boolean(), "a boolean", "")) {
            return std::nullopt;
        }
        return m_object[key].get<bool>();
    }

    /// `key` when it is an object (or absent, null: an empty one); noted when it is not.
    const json& object(const char* key) {
        static const json k_none;
        if (present(key) && wrong(key, m_object[key].is_object(), "an object", "")) {
            return k_none;
        }
        return f::value(m_object, key);
    }

    std::string path(const char* key) const { return m_path.empty() ? key : m_path + "." + key; }

private:
    template <typename Read>
    auto read(const char* key, bool (json::*is)() const noexcept, const char* kind,
              std::string_view consequence, Read reader)
        -> decltype(reader(std::declval<const json&>(), key)) {
        if (!present(key) || wrong(key, (m_object[key].*is)(), kind, consequence)) {
            return std::nullopt;
        }
        return reader(m_object, key);
    }

    bool present(const char* key) const {
        return m_object.is_object() && m_object.contains(key) && !m_object[key].is_null();
    }

    /// Notes the value of `key` when it is not `kind` (`ok` false); whether it was noted.
    bool wrong(const char* key, bool ok, const char* kind, std::string_view consequence) {
        if (!ok) {
            m_unread.push_back(
                fmt::format("{} is {}, not {}: {}", path(key),
                            m_object[key].dump(-1, ' ', false, json::error_handler_t::replace),
                            kind, consequence.empty() ? "left out" : consequence));
        }
        return !ok;
    }

    const json& m_object;
    std::string m_path;
    std::vector<std::string>& m_unread;
};

/// "p50", "p99.9": what --percentiles names them.
bool is_percentile_name(std::string_view name) {
    return name.size() > 1 && name[0] == 'p'
           && name.find_first_not_of("0123456789.", 1) == std::string_view::npos;
}

void read_series(const json& points, BenchFigures& fig) {
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string at = fmt::format("series.points[{}]", i);
        if (!points[i].is_object()) {
            fig.unread.push_back(fmt::format("{} is not an object: left out", at));
            continue;
        }
        Reader point(points[i], at, fig.unread);
        const auto t = point.number("elapsed_s", "the point is left out");
        const auto tps = point.number("tps", "the point is left out");
        const auto duration = point.number("duration_s");
        if (t && tps) {
            fig.series.push_back({*t, *tps, duration});
        }
    }
}

/// -c, -j and each worker thread's socket I/O and pinning, from the document's options.
void read_placement(const json& options, BenchFigures& fig) {
    Reader reader(options, "options", fig.unread);
    ClientPlacement& p = fig.placement;
    p.clients = reader.integer("clients");
    p.threads = reader.integer("threads");
    const json& io = f::value(options, "thread_socket_io");
    if (io.is_array()
        && std::all_of(io.begin(), io.end(), [](const json& v) { return v.is_string(); })) {
        p.thread_socket_io = io.get<std::vector<std::string>>();
    } else if (!io.is_null()) {
        fig.unread.emplace_back("options.thread_socket_io is not an array of strings: left out");
    }
    const json& cpus = f::value(options, "thread_cpus");
    if (cpus.is_array()) {
        for (const json& cpu : cpus) {
            p.thread_pinned.push_back(cpu.is_number_integer());
        }
    } else if (!cpus.is_null()) {
        fig.unread.emplace_back("options.thread_cpus is not an array: left out");
    }
}

} // namespace

std::optional<BenchFigures> bench_figures(const BenchStep& step) {
    const json& b = step.document;
    if (!b.is_object()) {
        return std::nullopt;
    }
    BenchFigures fig;
    Reader doc(b, "", fig.unread);
    Reader totals(doc.object("totals"), "totals", fig.unread);
    fig.tps = totals.number("tps");
    fig.transactions = totals.number("transactions");
    fig.duration_s = totals.number("duration_s");
    fig.connection_time_kind = totals.text("connection_time_kind").value_or("");
    fig.latency_average_ms = totals.number("latency_average_ms");
    fig.connection_time_ms = totals.number("connection_time_ms");
    fig.failed = totals.number("failed");
    fig.interrupted = totals.boolean("interrupted").value_or(false);
    fig.aborted_clients = totals.integer("aborted_clients").value_or(0);
    fig.client_version = doc.text("client_version").value_or("");
    read_placement(doc.object("options"), fig);
    Reader latency(doc.object("latency"), "latency", fig.unread);
    fig.latency_count = latency.number("count");
    if (const json& p = latency.object("percentiles_us"); p.is_object()) {
        Reader percentiles(p, "latency.percentiles_us", fig.unread);
        for (const auto& [name, value] : p.items()) {
            if (!is_percentile_name(name)) {
                fig.unread.push_back(fmt::format(
                    "latency.percentiles_us.{} is not a percentile's name: left out", name));
            } else if (const auto v = percentiles.number(name.c_str())) {
                fig.percentiles_us[name] = *v;
            }
        }
    }
    fig.histogram = latency.text("encoded");
    const json& points = f::value(doc.object("series"), "points");
    if (points.is_array()) {
        read_series(points, fig);
    } else if (!points.is_null()) {
        fig.unread.emplace_back("series.points is not an array: left out");
    }
    return fig;
}

} // namespace pglab::lab::store
