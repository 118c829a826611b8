// CSV and JSON exports of a report (`pglab report --format csv|json|claims-csv|checks-csv`): the
// aggregated cells, and the claims and functional checks as the report's Answer table and
// Functional checks section hold them (the same ClaimResult and CheckRow values, not computed
// again).
#include "lab/report/checks_section.hpp"
#include "lab/report/claim_words.hpp"
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

/// An interval of a claim when it has a bounded one.
std::optional<Interval> bounded(const std::optional<Interval>& ci) {
    return ci && ci->bounded ? ci : std::nullopt;
}

nlohmann::json interval_json(const std::optional<Interval>& ci) {
    const auto b = bounded(ci);
    return b ? nlohmann::json::array({b->low, b->high}) : nlohmann::json(nullptr);
}

nlohmann::json claim_json(const ClaimResult& r) {
    using nlohmann::json;
    auto opt = [](std::optional<double> v) { return v ? json(*v) : json(nullptr); };
    auto text = [](const std::string& t) { return t.empty() ? json(nullptr) : json(t); };
    const experiment::Claim& c = r.claim;
    json series = json::array();
    for (const auto& [at, mean] : r.series) {
        series.push_back({{"at", at}, {"mean", mean}});
    }
    return {{"text", c.text},
            {"source", text(c.source)},
            {"kind", experiment::claim_kind_name(c.kind)},
            {"step", text(c.step)},
            {"metric", text(c.metric)},
            {"cell", text(c.cell.text)},
            {"baseline", text(c.baseline.text)},
            {"divided_by", c.kind == experiment::ClaimKind::ratio_of_ratios
                               ? json::array({c.divided_by_cell.text, c.divided_by_baseline.text})
                               : json(nullptr)},
            {"shape", text(experiment::shape_name(c.shape))},
            {"over", text(c.over)},
            {"paper", text(r.paper)},
            {"own", c.own},
            {"paper_value", opt(c.paper)},
            {"at_most", opt(c.at_most)},
            {"at_least", opt(c.at_least)},
            {"tolerance", c.tolerance},
            {"measured", text(r.measured)},
            {"value", opt(r.judgement.value)},
            {"ci95", interval_json(r.judgement.ci95)},
            {"ci90", interval_json(r.judgement.ci90)},
            {"exact", c.exact},
            {"series", series},
            {"verdict", verdict_name(r.judgement.verdict)},
            {"look", r.judgement.look},
            {"looks", r.judgement.looks},
            {"why", text(r.why)},
            {"explanation", text(c.explanation)},
            {"verdict_text", verdict_text(r)}};
}

nlohmann::json check_json(const CheckRow& c) {
    using nlohmann::json;
    return {{"run", c.run},
            {"label", c.run_label.empty() ? json(nullptr) : json(c.run_label)},
            {"step", c.step},
            {"kind", c.kind},
            {"expected", c.expected},
            {"actual", c.actual},
            {"pass", c.pass}};
}

} // namespace

std::string export_claims_csv(const Report& report) {
    std::string out =
        "claim,source,kind,step,metric,cell,baseline,paper,paper_value,tolerance,"
        "measured,value,ci95_low,ci95_high,ci90_low,ci90_high,verdict,why,explanation,"
        "verdict_text,own,look,looks\n";
    for (const auto& r : report.claims) {
        const experiment::Claim& c = r.claim;
        const auto ci = bounded(r.judgement.ci95);
        const auto ci90 = bounded(r.judgement.ci90);
        out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                           csv_field(c.text), csv_field(c.source),
                           experiment::claim_kind_name(c.kind), csv_field(c.step),
                           csv_field(c.metric), csv_field(c.cell.text), csv_field(c.baseline.text),
                           csv_field(r.paper), csv_number(c.paper), csv_number(c.tolerance),
                           csv_field(r.measured), csv_number(r.judgement.value),
                           csv_number(ci ? std::optional<double>(ci->low) : std::nullopt),
                           csv_number(ci ? std::optional<double>(ci->high) : std::nullopt),
                           csv_number(ci90 ? std::optional<double>(ci90->low) : std::nullopt),
                           csv_number(ci90 ? std::optional<double>(ci90->high) : std::nullopt),
                           verdict_name(r.judgement.verdict), csv_field(r.why),
                           csv_field(c.explanation), csv_field(verdict_text(r)),
                           c.own ? "true" : "false", r.judgement.look, r.judgement.looks);
    }
    return out;
}

std::string export_checks_csv(const ResultsDir& results) {
    std::string out = "run,label,step,kind,expected,actual,pass\n";
    for (const auto& c : collect_checks(results)) {
        out +=
            fmt::format("{},{},{},{},{},{},{}\n", c.run, csv_field(c.run_label), csv_field(c.step),
                        csv_field(c.kind), csv_field(check_value_text(c.expected)),
                        csv_field(check_value_text(c.actual)), c.pass ? "true" : "false");
    }
    return out;
}

std::string export_csv(const ResultsDir& results, const std::vector<StepData>& steps) {
    std::string out = "step,step_type,metric,unit,cell,label,n,mean,stddev,median,min,max,"
                      "ci95_low,ci95_high,cv\n";
    for (const auto& step : steps) {
        for (const auto& m : step.metrics) {
            for (const auto& [cell_index, runs] : m.by_cell) {
                const Summary s = summary_in(m, cell_index);
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
            for (const auto& [cell_index, runs] : m.by_cell) {
                const Summary s = summary_in(m, cell_index);
                const Cell* c = find_cell(results, cell_index);
                cells.push_back(
                    {{"cell", cell_index},
                     {"label", c != nullptr ? c->label : std::string()},
                     {"values", c != nullptr ? store::bindings_json(c->bindings) : json::object()},
                     {"n", s.n},
                     {"mean", s.mean},
                     {"stddev", opt(s.stddev)},
                     {"median", s.median},
                     {"min", s.min},
                     {"max", s.max},
                     {"ci95", s.ci95 ? json::array({s.ci95->low, s.ci95->high}) : json(nullptr)},
                     {"cv", opt(s.cv)},
                     {"samples", values_of(runs)}});
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
    doc["question"] = report.question.empty() ? json(nullptr) : json(report.question);
    json claims = json::array();
    for (const auto& r : report.claims) {
        claims.push_back(claim_json(r));
    }
    doc["claims"] = claims;
    json checks = json::array();
    for (const auto& c : collect_checks(results)) {
        checks.push_back(check_json(c));
    }
    doc["checks"] = checks;
    return doc.dump(2) + "\n";
}

} // namespace pglab::lab::report
