// lab/run: functional checks of `sql` and `explain` steps (expect, expect_rows, expect_error,
// expect_blocked, expect_plan): what a statement gave against what the step expects, as rows of
// expected, actual and pass/fail. Pure: no libpq, no clock.
#pragma once

#include "lab/store/step_record.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::run {

/// The most rows of a statement's result a `sql` step keeps (the count is kept whole).
inline constexpr std::size_t k_max_kept_rows = 100;

/// What the last statement a step ran gave: its rows, or its error.
struct StatementOutcome {
    bool failed = false;
    std::string sqlstate; ///< of the error ("" when none or unknown)
    std::string message;  ///< of the error, without libpq's "ERROR:  " and final newline
    std::vector<std::string> columns;
    /// At most k_max_kept_rows rows, each value as text; nullopt for NULL.
    std::vector<std::vector<std::optional<std::string>>> rows;
    std::int64_t row_count = 0; ///< all rows of the result

    /// "23P01: conflicting key value violates exclusion constraint ..." or "no error".
    std::string error_text() const;
};

/// One check of a step, as the step's record keeps it: its kind ("expect", "expect_rows",
/// "expect_error", "expect_blocked", "expect_plan"), what was expected and what happened (text,
/// or lists of rows or node types), and whether it passed.
using CheckResult = store::CheckRecord;

/// "expect_error: expected \"23P01\", got \"no error\"" (the step's error when it fails).
std::string failure_text(const CheckResult& check);

/// An SQLSTATE as written in `expect_error`: five digits or upper-case letters ("23P01").
bool is_sqlstate(std::string_view text);

/// `expect`: the first column of the first row, as text, equals `expected`.
CheckResult check_value(const std::string& expected, const StatementOutcome& got);

/// `expect_rows`: the rows, in order, equal `expected` (a NULL is written `\N`).
CheckResult check_rows(const std::vector<std::vector<std::string>>& expected,
                       const StatementOutcome& got);

/// `expect_error`: the statements failed with SQLSTATE `expected` (when it is one) or with a
/// message containing it.
CheckResult check_error(const std::string& expected, const StatementOutcome& got);

/// `expect_blocked`: the statement was still waiting `bound_ms` after it was sent.
/// `completed_after_ms`: when it ended before the bound (nullopt: still waiting); `waiting_on`:
/// what it waited for ("Lock: relation, blocked by pid 1234"), "" when unknown.
CheckResult check_blocked(std::int64_t bound_ms, std::optional<double> completed_after_ms,
                          const std::string& waiting_on, const StatementOutcome& got);

/// "1 row", "3 rows", "no rows", "no rows (a command)", "error 57014: canceling statement ...".
std::string outcome_summary(const StatementOutcome& got);

/// How a step records what a statement gave: its rows (the kept ones) and count when it returned
/// columns, and its error.
store::StatementRecord statement_record(const StatementOutcome& got);

/// How a statement left waiting by `expect_blocked` ended, later (when its session's next step
/// needed it, or at the end of the run).
struct LateOutcome {
    StatementOutcome outcome;
    double waited_ms = 0; ///< from when it was sent to its end
    /// Non-empty when pglab cancelled it, and why: nothing could release it any more.
    std::string cancelled;
};

/// "then completed 3.4 s after it was sent: 1 row", "then failed 3.4 s after it was sent:
/// 57014: ...", "never released: cancelled 3.4 s after it was sent (...)".
std::string late_text(const LateOutcome& late);

/// Records `late` in the `expect_blocked` step's record: its late_result (completed, failed or
/// cancelled, the time waited, why it was cancelled, and what the statement gave), and
/// late_text() added to the actual of its expect_blocked check (its pass stays: it was judged at
/// the bound).
void add_late_outcome(store::SqlStep& step, const LateOutcome& late);

/// `expect_plan`: every node type of `expected` is among the plan's `node_types`.
CheckResult check_plan(const std::vector<std::string>& expected,
                       const std::vector<std::string>& node_types);

} // namespace pglab::lab::run
