// The report's functional checks: one row per check of every run (step, kind, expected, actual,
// pass or FAIL), read from the `checks` arrays of the step objects. Shown near the top; the same
// rows feed the JSON and CSV exports (export.cpp).
#pragma once

#include "lab/report/document.hpp"
#include "lab/report/results.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pglab::lab::report {

/// One check of one run, as results.jsonl holds it.
struct CheckRow {
    std::int64_t run = 0;
    std::string run_label; ///< the run's cell label ("" when it has none)
    std::string step;      ///< the step's key
    std::string kind;      ///< "expect", "expect_rows", "expect_error", "expect_blocked"...
    nlohmann::json expected;
    nlohmann::json actual;
    bool pass = false;
};

/// Every check of every run, in run and step order.
std::vector<CheckRow> collect_checks(const ResultsDir& results);

/// A check's value as text, whole: text as it is, a row list as "(a, b); (c, d)", a list of node
/// types as "Seq Scan, Sort", null as "NULL".
std::string check_value_text(const nlohmann::json& v);

/// How many checks the results hold and how many failed.
struct CheckCounts {
    std::size_t total = 0;
    std::size_t failed = 0;
};

/// Adds the "Functional checks" section to `doc` when the runs hold checks (nothing otherwise).
CheckCounts add_checks_section(const ResultsDir& results, Document& doc);

} // namespace pglab::lab::report
