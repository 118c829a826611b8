// The comparisons of functional checks, each kind passing and failing, without a server.
#include "lab/run/functional_checks.hpp"

#include <gtest/gtest.h>

namespace pglab::lab::run {
namespace {

StatementOutcome rows(std::vector<std::vector<std::optional<std::string>>> r) {
    StatementOutcome o;
    o.columns = {"a"};
    o.row_count = static_cast<std::int64_t>(r.size());
    o.rows = std::move(r);
    return o;
}

StatementOutcome error(std::string sqlstate, std::string message) {
    StatementOutcome o;
    o.failed = true;
    o.sqlstate = std::move(sqlstate);
    o.message = std::move(message);
    return o;
}

TEST(FunctionalChecksTest, ExpectComparesTheFirstValue) {
    EXPECT_TRUE(check_value("1", rows({{"1", "x"}})).pass);
    const CheckResult fail = check_value("2", rows({{"1"}}));
    EXPECT_FALSE(fail.pass);
    EXPECT_EQ(failure_text(fail), "expect: expected \"2\", got \"1\"");
    EXPECT_EQ(check_value("1", rows({})).actual, "no value (no rows)");
    EXPECT_EQ(check_value("1", rows({{std::nullopt}})).actual, "NULL");
    EXPECT_EQ(
        check_value("0", error("57014", "canceling statement due to statement timeout")).actual,
        "error 57014: canceling statement due to statement timeout");
}

TEST(FunctionalChecksTest, ExpectRowsComparesEveryRowInOrder) {
    EXPECT_TRUE(
        check_rows({{"1", "a"}, {"2", "\\N"}}, rows({{"1", "a"}, {"2", std::nullopt}})).pass);
    EXPECT_FALSE(check_rows({{"2"}, {"1"}}, rows({{"1"}, {"2"}})).pass);
    EXPECT_FALSE(check_rows({{"1"}}, rows({{"1"}, {"2"}})).pass);
    EXPECT_FALSE(check_rows({{"1", "a"}}, rows({{"1"}})).pass);
    EXPECT_FALSE(check_rows({{"NULL"}}, rows({{std::nullopt}})).pass);
    EXPECT_EQ(check_rows({{"1"}}, rows({{"1"}, {"2"}})).actual,
              nlohmann::json::parse(R"([["1"],["2"]])"));
    StatementOutcome many = rows({{"1"}});
    many.row_count = 500; // more rows than were kept: never equal to a written list
    EXPECT_FALSE(check_rows({{"1"}}, many).pass);
}

TEST(FunctionalChecksTest, ExpectErrorMatchesTheSqlstateOrTheMessage) {
    const StatementOutcome e =
        error("23P01", "conflicting key value violates exclusion constraint");
    EXPECT_TRUE(check_error("23P01", e).pass);
    EXPECT_TRUE(check_error("conflicting key value", e).pass);
    EXPECT_FALSE(check_error("23505", e).pass);
    EXPECT_EQ(check_error("23505", e).actual,
              "23P01: conflicting key value violates exclusion constraint");
    EXPECT_FALSE(check_error("23P01", rows({{"1"}})).pass);
    EXPECT_TRUE(is_sqlstate("0A000"));
    EXPECT_FALSE(is_sqlstate("0a000"));
    EXPECT_FALSE(is_sqlstate("division by zero"));
}

TEST(FunctionalChecksTest, ExpectBlockedPassesOnlyWhenStillWaiting) {
    const CheckResult pass = check_blocked(2000, std::nullopt, "Lock: relation", {});
    EXPECT_TRUE(pass.pass);
    EXPECT_EQ(pass.expected, "still waiting after 2 s");
    EXPECT_EQ(pass.actual, "still waiting after 2 s (Lock: relation)");
    const CheckResult fail = check_blocked(1500, 3.0, "", rows({{"0"}}));
    EXPECT_FALSE(fail.pass);
    EXPECT_EQ(fail.expected, "still waiting after 1.5 s");
    EXPECT_EQ(fail.actual, "completed after 3 ms: 1 row");
    EXPECT_EQ(check_blocked(500, 1.0, "", error("42P01", "relation \"x\" does not exist")).actual,
              "failed after 1 ms (42P01: relation \"x\" does not exist)");
}

// A statement left waiting ends later: completed with its rows, failed with its SQLSTATE, or
// cancelled by pglab when nothing could release it. The end is added to its step's fields and to
// the actual of its expect_blocked check, whose pass (judged at the bound) stays.
TEST(FunctionalChecksTest, TheLateOutcomeOfABlockedStatementIsRecorded) {
    store::SqlStep step;
    step.checks.push_back(check_blocked(2000, std::nullopt, "Lock: relation", {}));
    LateOutcome done{rows({{"7"}}), 3400.0, ""};
    add_late_outcome(step, done);
    EXPECT_EQ(step.checks[0].actual, "still waiting after 2 s (Lock: relation); then "
                                     "completed 3.4 s after it was sent: 1 row");
    EXPECT_TRUE(step.checks[0].pass);
    ASSERT_TRUE(step.late_result);
    EXPECT_EQ(*step.late_result,
              (store::LateResult{"completed", 3400.0, "", {{"a"}, {{"7"}}, 1, std::nullopt}}));

    const LateOutcome failed{error("57014", "canceling statement due to statement timeout"), 2500.0,
                             ""};
    EXPECT_EQ(late_text(failed), "then failed 2.5 s after it was sent: 57014: canceling statement "
                                 "due to statement timeout");
    store::SqlStep f2;
    add_late_outcome(f2, failed);
    ASSERT_TRUE(f2.late_result);
    EXPECT_EQ(f2.late_result->status, "failed");
    EXPECT_EQ(f2.late_result->statement.sql_error,
              (store::SqlError{"57014", "canceling statement due to statement timeout"}));
    EXPECT_TRUE(f2.late_result->statement.rows.empty());

    const LateOutcome cancelled{error("57014", "canceling statement due to user request"), 5000.0,
                                "still blocked by idle sessions"};
    EXPECT_EQ(late_text(cancelled),
              "never released: cancelled 5 s after it was sent (still blocked by idle sessions)");
    store::SqlStep f3;
    add_late_outcome(f3, cancelled);
    ASSERT_TRUE(f3.late_result);
    EXPECT_EQ(f3.late_result->status, "cancelled");
    EXPECT_EQ(f3.late_result->cancelled_because, "still blocked by idle sessions");

    StatementOutcome command; // no columns: a command
    EXPECT_EQ(outcome_summary(command), "no rows (a command)");
    EXPECT_EQ(outcome_summary(rows({})), "no rows");
    EXPECT_EQ(outcome_summary(rows({{"1"}, {"2"}})), "2 rows");
}

TEST(FunctionalChecksTest, ExpectPlanNeedsEveryNodeType) {
    const std::vector<std::string> nodes = {"Limit", "Index Only Scan"};
    EXPECT_TRUE(check_plan({"Index Only Scan"}, nodes).pass);
    EXPECT_TRUE(check_plan({"Limit", "Index Only Scan"}, nodes).pass);
    EXPECT_FALSE(check_plan({"Seq Scan"}, nodes).pass);
    EXPECT_FALSE(check_plan({"Limit", "Seq Scan"}, nodes).pass);
    EXPECT_EQ(check_plan({"Seq Scan"}, nodes),
              (CheckResult{"expect_plan", "Seq Scan", {"Limit", "Index Only Scan"}, false}));
}

} // namespace
} // namespace pglab::lab::run
