// The functional checks section: a sentence with the count, then the table of checks.
#include "lab/report/checks_section.hpp"

#include "util/text.hpp"

#include <fmt/format.h>

namespace pglab::lab::report {

namespace {

using nlohmann::json;

/// Longest text shown in a cell of the table (the whole value is in results.jsonl).
constexpr std::size_t k_cell_chars = 300;

std::string cell(const json& v) {
    const std::string text = util::shorten(check_value_text(v), k_cell_chars);
    return text.find('`') == std::string::npos ? "`" + text + "`" : text;
}

} // namespace

std::string check_value_text(const json& v) {
    if (v.is_string()) {
        return v.get<std::string>();
    }
    if (v.is_null()) {
        return "NULL";
    }
    if (!v.is_array()) {
        return v.dump();
    }
    std::string out;
    for (const auto& item : v) {
        std::string part;
        if (item.is_array()) {
            std::string cols;
            for (const auto& c : item) {
                cols += (cols.empty() ? "" : ", ") + check_value_text(c);
            }
            part = "(" + cols + ")";
        } else {
            part = check_value_text(item);
        }
        out += (out.empty() ? "" : v.front().is_array() ? "; " : ", ") + part;
    }
    return out.empty() ? "(none)" : out;
}

std::vector<CheckRow> collect_checks(const ResultsDir& results) {
    std::vector<CheckRow> out;
    for (const auto& finished : results.runs) {
        const store::RunRecord& run = finished.record;
        for (const store::StepRecord& step : run.steps) {
            for (const store::CheckRecord& c : step.checks()) {
                CheckRow row;
                row.run = static_cast<int64_t>(run.run);
                row.run_label = run.label;
                row.step = step.key.empty() ? "?" : step.key;
                row.kind = c.kind.empty() ? "?" : c.kind;
                row.expected = c.expected;
                row.actual = c.actual;
                row.pass = c.pass;
                out.push_back(std::move(row));
            }
        }
    }
    return out;
}

CheckCounts add_checks_section(const ResultsDir& results, Document& doc) {
    CheckCounts counts;
    Table t;
    const bool several_runs = results.runs.size() > 1;
    if (several_runs) {
        t.header.emplace_back("run");
    }
    for (const char* h : {"step", "check", "expected", "actual", "result"}) {
        t.header.emplace_back(h);
    }
    for (const auto& c : collect_checks(results)) {
        ++counts.total;
        counts.failed += c.pass ? 0 : 1;
        std::vector<std::string> row;
        if (several_runs) {
            row.push_back(c.run_label.empty() ? std::to_string(c.run)
                                              : fmt::format("{} ({})", c.run, c.run_label));
        }
        row.push_back(c.step);
        row.push_back(c.kind);
        row.push_back(cell(c.expected));
        row.push_back(cell(c.actual));
        row.emplace_back(c.pass ? "pass" : "FAIL");
        t.rows.push_back(std::move(row));
    }
    if (counts.total == 0) {
        return counts;
    }
    doc.heading(2, "Functional checks");
    doc.paragraph(
        counts.failed == 0
            ? fmt::format("All {} checks pass.", counts.total)
            : fmt::format("{} of {} checks FAIL (a failed check fails its run; the checks after it "
                          "still ran).",
                          counts.failed, counts.total));
    doc.table(std::move(t));
    return counts;
}

} // namespace pglab::lab::report
