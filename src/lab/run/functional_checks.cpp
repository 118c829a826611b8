// lab/run: the comparisons of functional checks, each giving expected, actual and pass/fail.
#include "lab/run/functional_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace pglab::lab::run {

namespace {

/// How `expect_rows` writes a NULL (as COPY's text format does).
constexpr std::string_view k_null_text = "\\N";

nlohmann::json rows_json(const std::vector<std::vector<std::optional<std::string>>>& rows) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& row : rows) {
        nlohmann::json r = nlohmann::json::array();
        for (const auto& v : row) {
            r.push_back(v ? nlohmann::json(*v) : nlohmann::json(nullptr));
        }
        out.push_back(std::move(r));
    }
    return out;
}

/// "2 s", "1.5 s", "250 ms".
std::string duration_text(double ms) {
    if (ms < 1000.0) {
        return fmt::format("{:.0f} ms", ms);
    }
    const double s = ms / 1000.0;
    return s == static_cast<double>(static_cast<std::int64_t>(s)) ? fmt::format("{:.0f} s", s)
                                                                  : fmt::format("{:.1f} s", s);
}

} // namespace

std::string StatementOutcome::error_text() const {
    if (!failed) {
        return "no error";
    }
    return sqlstate.empty() ? message : sqlstate + ": " + message;
}

std::string failure_text(const CheckResult& check) {
    const auto text = [](const nlohmann::json& j) {
        return j.is_string() ? "\"" + j.get<std::string>() + "\"" : j.dump();
    };
    return fmt::format("{}: expected {}, got {}", check.kind, text(check.expected),
                       text(check.actual));
}

bool is_sqlstate(std::string_view text) {
    return text.size() == 5 && std::all_of(text.begin(), text.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) != 0 || (c >= 'A' && c <= 'Z');
           });
}

CheckResult check_value(const std::string& expected, const StatementOutcome& got) {
    CheckResult c{"expect", expected, nullptr, false};
    if (got.failed) {
        c.actual = "error " + got.error_text();
    } else if (got.rows.empty() || got.rows[0].empty()) {
        c.actual = "no value (no rows)";
    } else if (!got.rows[0][0]) {
        c.actual = "NULL";
    } else {
        c.actual = *got.rows[0][0];
        c.pass = *got.rows[0][0] == expected;
    }
    return c;
}

CheckResult check_rows(const std::vector<std::vector<std::string>>& expected,
                       const StatementOutcome& got) {
    CheckResult c{"expect_rows", expected, nullptr, false};
    if (got.failed) {
        c.actual = "error " + got.error_text();
        return c;
    }
    c.actual = rows_json(got.rows);
    if (got.row_count > static_cast<std::int64_t>(got.rows.size())) {
        c.actual.push_back(fmt::format("... {} rows in all", got.row_count));
        return c;
    }
    if (expected.size() != got.rows.size()) {
        return c;
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (expected[i].size() != got.rows[i].size()) {
            return c;
        }
        for (std::size_t j = 0; j < expected[i].size(); ++j) {
            const auto& v = got.rows[i][j];
            if (v ? *v != expected[i][j] : expected[i][j] != k_null_text) {
                return c;
            }
        }
    }
    c.pass = true;
    return c;
}

CheckResult check_error(const std::string& expected, const StatementOutcome& got) {
    CheckResult c{"expect_error", expected, got.error_text(), false};
    if (!got.failed) {
        c.actual = "no error (the statements succeeded)";
        return c;
    }
    c.pass = is_sqlstate(expected) ? got.sqlstate == expected
                                   : got.message.find(expected) != std::string::npos;
    return c;
}

CheckResult check_blocked(std::int64_t bound_ms, std::optional<double> completed_after_ms,
                          const std::string& waiting_on, const StatementOutcome& got) {
    CheckResult c{"expect_blocked",
                  "still waiting after " + duration_text(static_cast<double>(bound_ms)), nullptr,
                  false};
    if (completed_after_ms) {
        c.actual = fmt::format("{} after {}", got.failed ? "failed" : "completed",
                               duration_text(*completed_after_ms));
        c.actual = c.actual.get<std::string>()
                   + (got.failed ? " (" + got.error_text() + ")" : ": " + outcome_summary(got));
        return c;
    }
    c.actual = "still waiting after " + duration_text(static_cast<double>(bound_ms))
               + (waiting_on.empty() ? "" : " (" + waiting_on + ")");
    c.pass = true;
    return c;
}

std::string outcome_summary(const StatementOutcome& got) {
    if (got.failed) {
        return "error " + got.error_text();
    }
    if (got.columns.empty()) {
        return "no rows (a command)";
    }
    if (got.row_count == 0) {
        return "no rows";
    }
    return fmt::format("{} row{}", got.row_count, got.row_count == 1 ? "" : "s");
}

store::StatementRecord statement_record(const StatementOutcome& got) {
    store::StatementRecord r;
    if (!got.columns.empty()) {
        r.columns = got.columns;
        r.rows = got.rows;
        r.row_count = got.row_count;
    }
    if (got.failed) {
        r.sql_error = store::SqlError{got.sqlstate, got.message};
    }
    return r;
}

std::string late_text(const LateOutcome& late) {
    const std::string when = duration_text(late.waited_ms) + " after it was sent";
    if (!late.cancelled.empty()) {
        return fmt::format("never released: cancelled {} ({})", when, late.cancelled);
    }
    if (late.outcome.failed) {
        return fmt::format("then failed {}: {}", when, late.outcome.error_text());
    }
    return fmt::format("then completed {}: {}", when, outcome_summary(late.outcome));
}

void add_late_outcome(store::SqlStep& step, const LateOutcome& late) {
    step.late_result =
        store::LateResult{!late.cancelled.empty() ? "cancelled"
                          : late.outcome.failed   ? "failed"
                                                  : "completed",
                          late.waited_ms, late.cancelled, statement_record(late.outcome)};
    for (CheckResult& c : step.checks) {
        if (c.kind == "expect_blocked" && c.actual.is_string()) {
            c.actual = c.actual.get<std::string>() + "; " + late_text(late);
        }
    }
}

CheckResult check_plan(const std::vector<std::string>& expected,
                       const std::vector<std::string>& node_types) {
    CheckResult c{"expect_plan", expected, node_types, true};
    for (const auto& want : expected) {
        c.pass =
            c.pass && std::find(node_types.begin(), node_types.end(), want) != node_types.end();
    }
    if (expected.size() == 1) {
        c.expected = expected[0];
    }
    return c;
}

} // namespace pglab::lab::run
