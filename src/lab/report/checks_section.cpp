// The functional checks section: a sentence with the count, then the table of checks.
#include "lab/report/checks_section.hpp"

#include "util/text.hpp"

#include <fmt/format.h>

namespace pglab::lab::report {

namespace {

using nlohmann::json;

/// Longest text shown in a cell of the table (the whole value is in results.jsonl).
constexpr std::size_t k_cell_chars = 300;

/// A value of a check as a table shows it: text as it is, a row list as "(a, b); (c, d)", a
/// list of node types as "Seq Scan, Sort".
std::string value_text(const json& v) {
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
                cols += (cols.empty() ? "" : ", ") + value_text(c);
            }
            part = "(" + cols + ")";
        } else {
            part = value_text(item);
        }
        out += (out.empty() ? "" : v.front().is_array() ? "; " : ", ") + part;
    }
    return out.empty() ? "(none)" : out;
}

std::string cell(const json& v) {
    const std::string text = util::shorten(value_text(v), k_cell_chars);
    return text.find('`') == std::string::npos ? "`" + text + "`" : text;
}

} // namespace

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
    for (const auto& run : results.runs) {
        for (const auto& step : run.doc.value("steps", json::array())) {
            const auto checks = step.is_object() ? step.find("checks") : step.end();
            if (!step.is_object() || checks == step.end() || !checks->is_array()) {
                continue;
            }
            for (const auto& c : *checks) {
                if (!c.is_object()) {
                    continue;
                }
                const bool pass = c.value("pass", false);
                ++counts.total;
                counts.failed += pass ? 0 : 1;
                std::vector<std::string> row;
                if (several_runs) {
                    row.push_back(run.label.empty() ? std::to_string(run.run)
                                                    : fmt::format("{} ({})", run.run, run.label));
                }
                row.push_back(step.value("key", std::string("?")));
                row.push_back(c.value("kind", std::string("?")));
                row.push_back(cell(c.value("expected", json(nullptr))));
                row.push_back(cell(c.value("actual", json(nullptr))));
                row.emplace_back(pass ? "pass" : "FAIL");
                t.rows.push_back(std::move(row));
            }
        }
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
