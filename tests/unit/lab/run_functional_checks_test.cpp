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
    EXPECT_EQ(fail.failure_text(), "expect: expected \"2\", got \"1\"");
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
    EXPECT_EQ(fail.actual, "completed after 3 ms");
    EXPECT_EQ(check_blocked(500, 1.0, "", error("42P01", "relation \"x\" does not exist")).actual,
              "failed after 1 ms (42P01: relation \"x\" does not exist)");
}

TEST(FunctionalChecksTest, ExpectPlanNeedsEveryNodeType) {
    const nlohmann::json nodes = {"Limit", "Index Only Scan"};
    EXPECT_TRUE(check_plan({"Index Only Scan"}, nodes).pass);
    EXPECT_TRUE(check_plan({"Limit", "Index Only Scan"}, nodes).pass);
    EXPECT_FALSE(check_plan({"Seq Scan"}, nodes).pass);
    EXPECT_FALSE(check_plan({"Limit", "Seq Scan"}, nodes).pass);
    EXPECT_EQ(to_json(check_plan({"Seq Scan"}, nodes)),
              nlohmann::json::parse(R"({"kind":"expect_plan","expected":"Seq Scan",
                  "actual":["Limit","Index Only Scan"],"pass":false})"));
}

} // namespace
} // namespace pglab::lab::run
