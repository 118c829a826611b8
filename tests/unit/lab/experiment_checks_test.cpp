// The check keys of sql and explain steps: expect_rows, expect_blocked, expect_plan lists, and the
// combinations that cannot go together.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiment_test_util.hpp"

namespace pglab::lab::experiment {
namespace {

using testing::parse_ok;
using testing::problems;

TEST(SpecChecksTest, ReadsEveryCheckKey) {
    const ExperimentSpec s = parse_ok(R"toml(
[[steps]]
type = "sql"
sql = "SELECT 1, 'a'"
expect_rows = [[1, "a"], ["x"], "y"]

[[steps]]
type = "sql"
sql = "SELECT 1"
expect_blocked = "1.5s"

[[steps]]
type = "explain"
sql = "SELECT 1"
expect_plan = ["Result", "Limit"]
)toml");
    ASSERT_EQ(s.steps.size(), 3u);
    ASSERT_TRUE(s.steps[0].expect_rows.has_value());
    const auto& rows = *s.steps[0].expect_rows;
    ASSERT_EQ(rows.size(), 3u);
    ASSERT_EQ(rows[0].size(), 2u);
    EXPECT_EQ(rows[0][0].text, "1");
    EXPECT_EQ(rows[0][1].text, "a");
    EXPECT_EQ(rows[2][0].text, "y");
    EXPECT_EQ(s.steps[1].expect_blocked_ms, 1500);
    EXPECT_THAT(s.steps[2].expect_plan, ::testing::ElementsAre("Result", "Limit"));
}

TEST(SpecChecksTest, RefusesChecksThatCannotGoTogether) {
    const std::string p = problems(R"toml(
[[steps]]
type = "sql"
sql = "SELECT 1"
expect_rows = ["1"]
expect_error = "23505"

[[steps]]
type = "sql"
sql = "SELECT 1"
expect = "1"
expect_blocked = "1s"

[[steps]]
type = "sql"
sql = "SELECT 1"
wait = false
expect_blocked = "1s"

[[steps]]
type = "sql"
sql = "SELECT 1"
expect_rows = "1"
)toml");
    EXPECT_NE(p.find("t.toml:5:1: a \"sql\" step cannot have both \"expect_error\" and "
                     "\"expect_rows\""),
              std::string::npos)
        << p;
    EXPECT_NE(p.find("cannot have both \"expect\" and \"expect_blocked\""), std::string::npos) << p;
    EXPECT_NE(p.find("cannot have both \"wait = false\" and \"expect_blocked\""), std::string::npos)
        << p;
    EXPECT_NE(p.find("\"expect_rows\" in step 4 (sql) must be an array of rows"), std::string::npos)
        << p;
}

} // namespace
} // namespace pglab::lab::experiment
