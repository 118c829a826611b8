// Script splitting: the SQL texts pgbench 15 sends for each script (captured with `pgbench -d`).
#include "script/loader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pglab::script {
namespace {

struct SplitCase {
    const char* name;
    const char* source;
    std::vector<std::string> sql;
};

const SplitCase k_split_cases[] = {
    {"simple", "SELECT 1;\nSELECT 2;\n", {"SELECT 1;", "SELECT 2;"}},
    {"no final semicolon", "SELECT 1;\nSELECT 2", {"SELECT 1;", "SELECT 2"}},
    {"multi line", "SELECT\n  1\n  + 2;\n", {"SELECT\n  1\n  + 2;"}},
    {"leading comments",
     "-- c1\n  -- c2\n\n   SELECT 1; -- trailing\nSELECT 2;\n",
     {"SELECT 1;", "SELECT 2;"}},
    {"block comment kept", "/* head */ SELECT 1;\n", {"/* head */ SELECT 1;"}},
    {"inner comments", "SELECT 1 -- x;\n + 1 /* ; */;\n", {"SELECT 1 -- x;\n + 1 /* ; */;"}},
    {"quotes",
     "SELECT 'a;b', 'it''s', \"we;ird\" FROM (SELECT 1) AS \"we;ird\";\n",
     {"SELECT 'a;b', 'it''s', \"we;ird\" FROM (SELECT 1) AS \"we;ird\";"}},
    {"escape string", "SELECT E'a\\';b', 1;\n", {"SELECT E'a\\';b', 1;"}},
    {"dollar quotes",
     "SELECT $$a;b$$, $tag$ x $$ ; $tag$;\n",
     {"SELECT $$a;b$$, $tag$ x $$ ; $tag$;"}},
    {"parens", "SELECT 2;\nSELECT (1\n;\n);\n", {"SELECT 2;", "SELECT (1\n;\n);"}},
    {"backslash semicolon", "SELECT 1 \\; SELECT 2;\n", {"SELECT 1 ; SELECT 2;"}},
    {"backslash colon", "SELECT '1'\\:\\:int;\n", {"SELECT '1'::int;"}},
    {"meta mid line", "SELECT 1 \\set x 1\nSELECT 3;\n", {"SELECT 1 ", "SELECT 3;"}},
    {"two on a line", "SELECT 1; SELECT 2;\n", {"SELECT 1;", "SELECT 2;"}},
    {"create function begin atomic",
     "CREATE OR REPLACE FUNCTION pg_temp.f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; "
     "SELECT 2; END;\nSELECT pg_temp.f();\n",
     {"CREATE OR REPLACE FUNCTION pg_temp.f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; "
      "SELECT 2; END;",
      "SELECT pg_temp.f();"}},
    {"case inside begin",
     "CREATE FUNCTION pg_temp.g(x int) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN x > "
     "0 THEN 1 ELSE 2 END; END;\nSELECT pg_temp.g(1);\n",
     {"CREATE FUNCTION pg_temp.g(x int) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN x > "
      "0 THEN 1 ELSE 2 END; END;",
      "SELECT pg_temp.g(1);"}},
    {"begin transaction", "BEGIN;\nSELECT 1;\nEND;\n", {"BEGIN;", "SELECT 1;", "END;"}},
    {"psql var quote",
     "SELECT 1 AS \"x\" WHERE ':''a' = ':''a';\n",
     {"SELECT 1 AS \"x\" WHERE ':''a' = ':''a';"}},
    {"typecast", "SELECT '1'::int;\n", {"SELECT '1'::int;"}},
    {"cr lf", "SELECT 1;\r\nSELECT 2;\r\n", {"SELECT 1;", "SELECT 2;"}},
    {"trailing spaces before meta",
     "SELECT 1 AS x   \\gset\nSELECT 2;\n",
     {"SELECT 1 AS x   ", "SELECT 2;"}},
    {"comment only tail", "SELECT 1;\n-- end\n", {"SELECT 1;"}},
    {"nested block comment", "SELECT /* a /* b; */ c; */ 1;\n", {"SELECT /* a /* b; */ c; */ 1;"}},
    {"dollar param",
     "SELECT 1;\nSELECT 1 WHERE $1x$ IS NULL;\n",
     {"SELECT 1;", "SELECT 1 WHERE $1x$ IS NULL;"}},
};

std::vector<std::string> split(const std::string& source) {
    ScriptSet set;
    Status st = set.add("s.sql", "s.sql", source, 1);
    EXPECT_TRUE(st) << (st ? "" : st.error().message);
    std::vector<std::string> out;
    if (st) {
        for (const Command& c : set.scripts()[0].commands) {
            if (c.type == CommandType::sql) {
                out.push_back(c.sql);
            }
        }
    }
    return out;
}

TEST(SplitTest, MatchPgbench) {
    for (const SplitCase& c : k_split_cases) {
        EXPECT_EQ(split(c.source), c.sql) << c.name;
    }
}

TEST(SplitTest, LinesAndFirstLine) {
    ScriptSet set;
    ASSERT_TRUE(
        set.add("s", "s", "-- c\n\nSELECT\n 1;\n\\set x 1 + \\\n 2\nSELECT 2 \\gset p_\n", 1));
    const auto& cmds = set.scripts()[0].commands;
    ASSERT_EQ(cmds.size(), 3U);
    EXPECT_EQ(cmds[0].line, 3);
    EXPECT_EQ(cmds[0].first_line, "SELECT");
    EXPECT_EQ(cmds[1].line, 5);
    EXPECT_EQ(cmds[1].first_line, "\\set x 1 + \\\n 2");
    EXPECT_EQ(cmds[2].line, 7);
    EXPECT_EQ(cmds[2].result_vars, ResultVars::gset);
    EXPECT_EQ(cmds[2].var_prefix, "p_");
}

TEST(SplitTest, FirstLineIsCutAt127Bytes) {
    ScriptSet set;
    const std::string sql = "SELECT '" + std::string(200, 'x') + "';";
    ASSERT_TRUE(set.add("s", "s", sql, 1));
    EXPECT_EQ(set.scripts()[0].commands[0].first_line, sql.substr(0, 127));
}

TEST(SplitTest, Conditionals) {
    ScriptSet set;
    ASSERT_TRUE(set.add("s", "s",
                        "\\if 0\nSELECT 1;\n\\elif 1\nSELECT 2;\n\\else\nSELECT 3;\n\\endif\n", 1));
    const auto& c = set.scripts()[0].commands;
    EXPECT_EQ(c[0].jump, 2);
    EXPECT_EQ(c[2].jump, 4);
    EXPECT_EQ(c[0].endif, 6);
    EXPECT_EQ(c[2].endif, 6);
    EXPECT_EQ(c[4].endif, 6);
}

} // namespace
} // namespace pglab::script
