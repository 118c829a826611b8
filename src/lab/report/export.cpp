// CSV and JSON exports of the aggregated cells (`pglab report --format csv|json`).
#include "lab/report/report.hpp"
#include "lab/report/statistics.hpp"

#include <fmt/format.h>

#include <optional>

namespace pglab::lab::report {

namespace {

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) {
        return text;
    }
    std::string out = "\"";
    for (const char c : text) {
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return out + "\"";
}

std::string csv_number(std::optional<double> v) {
    return v ? fmt::format("{}", *v) : std::string();
}

} // namespace

std::string export_csv(const ResultsDir& results, const std::vector<StepData>& steps) {
    std::string out = "step,step_type,metric,unit,cell,label,n,mean,stddev,median,min,max,"
                      "ci95_low,ci95_high,cv\n";
    for (const auto& step : steps) {
        for (const auto& m : step.metrics) {
            for (const auto& [cell_index, values] : m.by_cell) {
                const Summary s = summarize(values);
                const Cell* c = find_cell(results, cell_index);
                out += fmt::format(
                    "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(step.key),
                    step.type, csv_field(m.info.id), m.info.unit, cell_index,
                    csv_field(c != nullptr ? c->label : std::string()), s.n, s.mean,
                    csv_number(s.stddev), s.median, s.min, s.max,
                    csv_number(s.ci95 ? std::optional<double>(s.ci95->low) : std::nullopt),
                    csv_number(s.ci95 ? std::optional<double>(s.ci95->high) : std::nullopt),
                    csv_number(s.cv));
            }
        }
    }
    return out;
}

std::string export_json(const ResultsDir& results, const Report& report) {
    using nlohmann::json;
    auto opt = [](std::optional<double> v) { return v ? json(*v) : json(nullptr); };
    json doc = {{"version", "pglab.report/1"},
                {"experiment", results.name},
                {"warnings", report.warnings},
                {"problems", results.problems}};
    json steps = json::array();
    for (const auto& step : report.steps) {
        json metrics = json::array();
        for (const auto& m : step.metrics) {
            json cells = json::array();
            for (const auto& [cell_index, values] : m.by_cell) {
                const Summary s = summarize(values);
                const Cell* c = find_cell(results, cell_index);
                cells.push_back(
                    {{"cell", cell_index},
                     {"label", c != nullptr ? c->label : std::string()},
                     {"values", c != nullptr ? c->values : json::object()},
                     {"n", s.n},
                     {"mean", s.mean},
                     {"stddev", opt(s.stddev)},
                     {"median", s.median},
                     {"min", s.min},
                     {"max", s.max},
                     {"ci95", s.ci95 ? json::array({s.ci95->low, s.ci95->high}) : json(nullptr)},
                     {"cv", opt(s.cv)},
                     {"samples", values}});
            }
            metrics.push_back({{"id", m.info.id},
                               {"title", m.info.title},
                               {"unit", m.info.unit},
                               {"cells", cells}});
        }
        steps.push_back(
            {{"key", step.key}, {"type", step.type}, {"index", step.index}, {"metrics", metrics}});
    }
    doc["steps"] = steps;
    return doc.dump(2) + "\n";
}

} // namespace pglab::lab::report
