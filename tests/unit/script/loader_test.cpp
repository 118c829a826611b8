// Builtin scripts, weights, compilation for each query mode and the run-time helpers.
#include "script/loader.hpp"

#include <gtest/gtest.h>

namespace pglab::script {
namespace {

TEST(BuiltinTest, TextsAndLookup) {
    ASSERT_EQ(builtin_scripts().size(), 3U);
    EXPECT_EQ(builtin_scripts()[2].text,
              "\\set aid random(1, 100000 * :scale)\n"
              "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n");
    auto b = find_builtin("si");
    ASSERT_TRUE(b);
    EXPECT_EQ((*b)->name, "simple-update");
    EXPECT_EQ((*b)->desc, "<builtin: simple update>");
    auto amb = find_builtin("s");
    ASSERT_FALSE(amb);
    EXPECT_EQ(amb.error().message,
              "ambiguous builtin name: 2 builtin scripts found for prefix \"s\"");
    EXPECT_EQ(amb.error().trailer, builtin_list_text());
    EXPECT_EQ(find_builtin("nope").error().message, "no builtin script found for name \"nope\"");
    EXPECT_EQ(builtin_list_text(), "Available builtin scripts:\n"
                                   "      tpcb-like: <builtin: TPC-B (sort of)>\n"
                                   "  simple-update: <builtin: simple update>\n"
                                   "    select-only: <builtin: select only>\n"
                                   "\n");
}

TEST(BuiltinTest, AllBuiltinsLoad) {
    ScriptSet set;
    for (const BuiltinScript& b : builtin_scripts()) {
        ASSERT_TRUE(set.add(b.desc, b.desc, b.text, 1));
    }
    ASSERT_TRUE(set.compile(QueryMode::prepared));
    EXPECT_EQ(set.scripts()[0].commands.size(), 11U);
    EXPECT_EQ(set.scripts()[1].commands.size(), 9U);
    EXPECT_EQ(set.scripts()[2].commands.size(), 2U);
    // prepared names are numbered across scripts, SQL commands only
    EXPECT_EQ(set.scripts()[0].commands[4].prepared_name, "P_0");
    EXPECT_EQ(set.scripts()[1].commands[4].prepared_name, "P_7");
    EXPECT_EQ(set.scripts()[2].commands[1].prepared_name, "P_12");
    EXPECT_EQ(set.total_weight(), 3);
}

TEST(WeightTest, SplitWeight) {
    auto w = split_weight("a@b@3");
    ASSERT_TRUE(w);
    EXPECT_EQ(w->first, "a@b");
    EXPECT_EQ(w->second, 3);
    EXPECT_EQ(split_weight("file.sql")->second, 1);
    EXPECT_EQ(split_weight("select-only@one").error().message,
              "invalid weight specification: @one");
    EXPECT_EQ(split_weight("x@-1").error().message,
              "weight specification out of range (0 .. 2147483647): -1");
    EXPECT_EQ(split_weight("x@99999999999").error().message,
              "weight specification out of range (0 .. 2147483647): 99999999999");
    EXPECT_EQ(split_weight("x@").error().message, "invalid weight specification: @");
}

struct Compiled {
    ScriptSet set;

    const Command& cmd(size_t i) const { return set.scripts()[0].commands[i]; }
};

TEST(CompileTest, SimpleModePieces) {
    Compiled c;
    ASSERT_TRUE(c.set.add("s", "s", "SELECT :a, ':b'::text, :undef, a::int, :::c;\n", 1));
    ASSERT_TRUE(c.set.compile(QueryMode::simple));
    VariableTable& t = c.set.variables();
    Variables vars(t);
    vars.set(t.find("a"), Value::real(1.0));
    vars.set_string(t.find("b"), "x y");
    std::string out = "garbage";
    substitute_sql(c.cmd(0), vars, out);
    EXPECT_EQ(out, "SELECT 1, 'x y'::text, :undef, a::int, :::c;");
}

TEST(CompileTest, ExtendedModeParams) {
    Compiled c;
    ASSERT_TRUE(c.set.add("s", "s", "SELECT :a, :b, :a;\n", 1));
    ASSERT_TRUE(c.set.compile(QueryMode::extended));
    EXPECT_EQ(c.cmd(0).parameterized_sql, "SELECT $1, $2, $3;");
    EXPECT_TRUE(c.cmd(0).prepared_name.empty());
    VariableTable& t = c.set.variables();
    Variables vars(t);
    vars.set(t.find("a"), Value::integer(-5));
    std::vector<std::string> values;
    std::vector<bool> nulls;
    fill_params(c.cmd(0), vars, values, nulls);
    EXPECT_EQ(values, (std::vector<std::string>{"-5", "", "-5"}));
    EXPECT_EQ(nulls, (std::vector<bool>{false, true, false}));
}

TEST(CompileTest, TooManyParameters) {
    std::string sql = "SELECT LEAST(";
    for (int i = 0; i < 256; ++i) {
        sql += i ? ", :i" : ":i";
    }
    sql += ");";
    Compiled c;
    ASSERT_TRUE(c.set.add("s", "s", "\\set i 0\n" + sql + "\n", 1));
    ASSERT_TRUE(c.set.compile(QueryMode::simple));
    Status st = c.set.compile(QueryMode::prepared);
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().message, "statement has too many arguments (maximum is 255): " + sql);
}

TEST(RuntimeHelpersTest, Sleep) {
    Compiled c;
    ASSERT_TRUE(c.set.add("s", "s", "\\sleep 10ms\n\\sleep :d us\n\\sleep 2\n\\sleep :x\n", 1));
    VariableTable& t = c.set.variables();
    Variables vars(t);
    EXPECT_EQ(*sleep_duration_us(c.cmd(0), vars), 10000);
    vars.set_string(t.find("d"), "250");
    EXPECT_EQ(*sleep_duration_us(c.cmd(1), vars), 250);
    EXPECT_EQ(*sleep_duration_us(c.cmd(2), vars), 2000000);
    EXPECT_EQ(sleep_duration_us(c.cmd(3), vars).error().message, "sleep: undefined variable \"x\"");
    vars.set_string(t.find("x"), "abc");
    EXPECT_EQ(sleep_duration_us(c.cmd(3), vars).error().message,
              "sleep: invalid sleep time \"abc\" for variable \"x\"");
}

TEST(RuntimeHelpersTest, ShellCommandLine) {
    Compiled c;
    ASSERT_TRUE(c.set.add("s", "s",
                          "\\shell echo ::foo :v\n\\setshell r echo :nosuch\n\\shell echo "
                              + std::string(250, 'x') + " abcd\n",
                          1));
    VariableTable& t = c.set.variables();
    Variables vars(t);
    vars.set(t.find("v"), Value::integer(7));
    EXPECT_EQ(*shell_command_line(c.cmd(0), vars), "echo :foo 7");
    EXPECT_EQ(c.cmd(1).var_slot, t.find("r"));
    EXPECT_EQ(shell_command_line(c.cmd(1), vars).error().message,
              "echo: undefined variable \":nosuch\"");
    EXPECT_EQ(shell_command_line(c.cmd(2), vars).error().message,
              "echo: shell command is too long");
}

TEST(VariablesTest, NamesAndTyping) {
    EXPECT_TRUE(valid_variable_name("a1"));
    EXPECT_TRUE(valid_variable_name("_x"));
    EXPECT_TRUE(valid_variable_name("\xc3\xa9t\xc3\xa9"));
    EXPECT_FALSE(valid_variable_name("1a"));
    EXPECT_FALSE(valid_variable_name(""));
    EXPECT_FALSE(valid_variable_name("bad name!"));
    EXPECT_FALSE(valid_variable_name("?column?"));
    auto p = [](const char* s) { return parse_variable_text("v", s); };
    EXPECT_EQ(p("NULL")->type, ValueType::null);
    EXPECT_TRUE(p("y")->u.b);
    EXPECT_TRUE(p("on")->u.b);
    EXPECT_FALSE(p("of")->u.b);
    EXPECT_FALSE(p("n")->u.b);
    EXPECT_EQ(p("+3")->u.i, 3);
    EXPECT_EQ(p("-10.1")->u.d, -10.1);
    EXPECT_EQ(p("o").error().message, "malformed variable \"v\" value: \"o\"");
}

TEST(VariablesTest, TextRendering) {
    VariableTable t;
    const int a = t.intern("a");
    Variables vars(t);
    std::string s;
    EXPECT_FALSE(vars.text(a, s));
    vars.set(a, Value::real(1.0));
    EXPECT_TRUE(vars.text(a, s));
    vars.set(a, Value::real(-54.21E-2));
    vars.text(a, s);
    vars.set(a, Value::null());
    vars.text(a, s);
    vars.set(a, Value::boolean(false));
    vars.text(a, s);
    vars.set_string(a, "  raw ");
    vars.text(a, s);
    EXPECT_EQ(s, "1-0.5421NULLfalse  raw ");
    const int late = t.intern("late"); // interned after the Variables were made
    vars.set(late, Value::integer(3));
    EXPECT_EQ(vars.get(late)->u.i, 3);
}

} // namespace
} // namespace pglab::script
