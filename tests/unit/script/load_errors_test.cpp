// Load-time (exit 1) script errors: the exact text pgbench 15 prints after "pgbench: error: ",
// captured by running pgbench on each script (an empty expectation means the script loads).
#include <gtest/gtest.h>

#include "script_test_util.hpp"

namespace pglab::script {
namespace {

struct LoadCase {
    const char* name;
    const char* source;
    const char* expected;
};

const LoadCase k_load_error_cases[] = {
    {"missing endif", "\\if 1\n",
     "condition error in script \"script.sql\" command 2: \\if without matching \\endif\n"},
    {"missing if on elif", "\\elif 1\n",
     "condition error in script \"script.sql\" command 1: \\elif without matching \\if\n"},
    {"missing if on else", "\\else\n",
     "condition error in script \"script.sql\" command 1: \\else without matching \\if\n"},
    {"missing if on endif", "\\endif\n",
     "condition error in script \"script.sql\" command 1: \\endif without matching \\if\n"},
    {"elif after else", "\\if 1\n\\else\n\\elif 0\n\\endif\n",
     "condition error in script \"script.sql\" command 3: \\elif after \\else\n"},
    {"else after else", "\\if 1\n\\else\n\\else\n\\endif\n",
     "condition error in script \"script.sql\" command 3: \\else after \\else\n"},
    {"if syntax error", "\\if\n\\endif\n",
     "script.sql:1: syntax error in command \"if\"\n\\if\n   ^ error found here\n"},
    {"elif syntax error", "\\if 0\n\\elif +\n\\endif\n",
     "script.sql:2: syntax error in command \"elif\"\n\\elif +\n       ^ error found here\n"},
    {"else syntax error", "\\if 0\n\\else BAD\n\\endif\n",
     "script.sql:2: unexpected argument in command \"else\"\n\\else BAD\n"},
    {"endif syntax error", "\\if 0\n\\endif BAD\n",
     "script.sql:2: unexpected argument in command \"endif\"\n\\endif BAD\n"},
    {"least()", "\\set i least()\n",
     "script.sql:1: at least one argument expected (least) in command \"set\"\n\\set i least()\n   "
     "          ^ error found here\n"},
    {"greatest()", "\\set i greatest()\n",
     "script.sql:1: at least one argument expected (greatest) in command \"set\"\n\\set i "
     "greatest()\n                ^ error found here\n"},
    {"hash()", "\\set i hash()\n",
     "script.sql:1: unexpected number of arguments (hash) in command \"set\"\n\\set i hash()\n     "
     "       ^ error found here\n"},
    {"hash(1,2,3)", "\\set i hash(1,2,3)\n",
     "script.sql:1: unexpected number of arguments (hash) in command \"set\"\n\\set i "
     "hash(1,2,3)\n                 ^ error found here\n"},
    {"bigint overflow 1", "\\set i 100000000000000000000\n",
     "script.sql:1: bigint constant overflow (100000000000000000000) in command \"set\"\n\\set i "
     "100000000000000000000\n                           ^ error found here\n"},
    {"double overflow 2", "\\set d 1.0E309\n",
     "script.sql:1: double constant overflow (1.0E309) in command \"set\"\n\\set d 1.0E309\n       "
     "      ^ error found here\n"},
    {"double overflow 3", "\\set d .1E310\n",
     "script.sql:1: double constant overflow (.1E310) in command \"set\"\n\\set d .1E310\n         "
     "   ^ error found here\n"},
    {"set i", "\\set i 1 +\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i 1 +\n          ^ error found here\n"},
    {"set i eof", "\\set i 1 +",
     "script.sql:1: syntax error in command \"set\"\n\\set i 1 +\n         ^ error found here\n"},
    {"permute(1)", "\\set i permute(1)\n",
     "script.sql:1: unexpected number of arguments (permute) in command \"set\"\n\\set i "
     "permute(1)\n                ^ error found here\n"},
    {"permute(1,2,3,4)", "\\set i permute(1, 2, 3, 4)\n",
     "script.sql:1: unexpected number of arguments (permute) in command \"set\"\n\\set i "
     "permute(1, 2, 3, 4)\n                         ^ error found here\n"},
    {"sql too many args",
     "\\set i 0\nSELECT LEAST(:i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i);\n",
     ""},
    {"sql 255 args ok",
     "\\set i 0\nSELECT LEAST(:i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, :i, "
     ":i, :i, :i, :i, :i, :i, :i, :i);\n",
     ""},
    {"shell missing command", "\\shell\n",
     "script.sql:1: missing command in command \"shell\"\n\\shell\n"},
    {"shell too many args",
     "\\shell echo arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg\n",
     "script.sql:1: too many arguments in command \"shell\"\n"},
    {"shell 254 args ok",
     "\\shell echo arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg arg "
     "arg arg arg arg\n",
     ""},
    {"set syntax error", "\\set i 1 +\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i 1 +\n          ^ error found here\n"},
    {"set no such function", "\\set i noSuchFunction()\n",
     "script.sql:1: unexpected function name (noSuchFunction) in command \"set\"\n\\set i "
     "noSuchFunction()\n                    ^ error found here\n"},
    {"set unexpected char", "\\set i ;\n",
     "script.sql:1: unexpected character (;) in command \"set\"\n\\set i ;\n       ^ error found "
     "here\n"},
    {"set no expression", "\\set i\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i\n      ^ error found here\n"},
    {"set missing argument", "\\set\n", "script.sql:1: missing argument in command \"set\"\n"},
    {"set case error", "\\set i CASE TRUE THEN 1 ELSE 0 END\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i CASE TRUE THEN 1 ELSE 0 END\n         "
     "      ^ error found here\n"},
    {"set number of args mismatch", "\\set d ln(1.0, 2.0))\n",
     "script.sql:1: unexpected number of arguments (ln) in command \"set\"\n\\set d ln(1.0, "
     "2.0))\n                  ^ error found here\n"},
    {"set at least one arg", "\\set i greatest())\n",
     "script.sql:1: at least one argument expected (greatest) in command \"set\"\n\\set i "
     "greatest())\n                ^ error found here\n"},
    {"setshell missing arg", "\\setshell var\n",
     "script.sql:1: missing argument in command \"setshell\"\n\\setshell var\n"},
    {"sleep too many args", "\\sleep too many args\n",
     "script.sql:1: too many arguments in command \"sleep\"\n\\sleep too many args\n               "
     " ^ error found here\n"},
    {"sleep missing arg", "\\sleep\n",
     "script.sql:1: missing argument in command \"sleep\"\n\\sleep\n"},
    {"sleep unknown unit", "\\sleep 1 week\n",
     "script.sql:1: unrecognized time unit, must be us, ms or s (week) in command "
     "\"sleep\"\n\\sleep 1 week\n         ^ error found here\n"},
    {"sleep glued unit bad", "\\sleep 10xs\n",
     "script.sql:1: unrecognized time unit, must be us, ms or s (xs) in command \"sleep\"\n\\sleep "
     "10xs\n         ^ error found here\n"},
    {"sleep glued unit ok", "\\sleep 10ms\n", ""},
    {"sleep non digit", "\\sleep abc\n",
     "script.sql:1: invalid sleep time, must be an integer (abc) in command \"sleep\"\n\\sleep "
     "abc\n       ^ error found here\n"},
    {"sleep sign only", "\\sleep -\n", ""},
    {"sleep glued with unit", "\\sleep 10ms ms\n",
     "script.sql:1: invalid sleep time, must be an integer (10ms) in command \"sleep\"\n\\sleep "
     "10ms ms\n       ^ error found here\n"},
    {"misc invalid backslash command", "\\nosuchcommand\n",
     "script.sql:1: invalid command in command \"nosuchcommand\"\n\\nosuchcommand\n"},
    {"misc empty script", "", "empty command list for script \"script.sql\"\n"},
    {"only comments", "-- hello\n   \n-- bye\n", "empty command list for script \"script.sql\"\n"},
    {"gset alone", "\\gset\n", "script.sql:1: \\gset must follow an SQL command\n"},
    {"gset no SQL", "\\set i +1\n\\gset\n",
     "script.sql:2: \\gset must follow an SQL command (\\set i +1)\n"},
    {"gset too many arguments", "SELECT 1 \\gset a b\n",
     "script.sql:1: too many arguments in command \"gset\"\n\\gset a b\n"},
    {"gset after gset", "SELECT 1 AS i \\gset\n\\gset\n",
     "script.sql:2: \\gset must follow an SQL command\n"},
    {"aset after gset", "SELECT 1 AS i \\gset\n\\aset\n",
     "script.sql:2: \\gset must follow an SQL command\n"},
    {"startpipeline arg", "\\startpipeline x\n",
     "script.sql:1: unexpected argument in command \"startpipeline\"\n\\startpipeline x\n"},
    {"endpipeline arg", "\\endpipeline x\n",
     "script.sql:1: unexpected argument in command \"endpipeline\"\n\\endpipeline x\n"},
    {"continuation caret", "  \\set i  1 +  \\\n  2 + \n",
     "script.sql:1: syntax error in command \"set\"\n\\set i  1 +  \\\n  2 + \n                    "
     " ^ error found here\n"},
    {"last lexical error wins", "\\set i ) 99999999999999999999 1e999\n",
     "script.sql:1: double constant overflow (1e999) in command \"set\"\n\\set i ) "
     "99999999999999999999 1e999\n                                  ^ error found here\n"},
    {"syntax then bad char", "\\set i ) ;\n",
     "script.sql:1: unexpected character (;) in command \"set\"\n\\set i ) ;\n         ^ error "
     "found here\n"},
    {"nonassoc", "\\set i 1 < 2 < 3\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i 1 < 2 < 3\n             ^ error found "
     "here\n"},
    {"nonassoc mixed", "\\set j debug(1 <= 2 = true)\n",
     "script.sql:1: syntax error in command \"set\"\n\\set j debug(1 <= 2 = true)\n                "
     "    ^ error found here\n"},
    {"double equal", "\\set i 1 == 1\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i 1 == 1\n          ^ error found "
     "here\n"},
    {"bang", "\\set i debug(1 ! 2)\n",
     "script.sql:1: unexpected character (!) in command \"set\"\n\\set i debug(1 ! 2)\n            "
     "   ^ error found here\n"},
    {"maxint alone", "\\set i 9223372036854775808\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i 9223372036854775808\n                 "
     "        ^ error found here\n"},
    {"function without parens", "\\set i pi\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i pi\n         ^ error found here\n"},
    {"unknown word", "\\set i abc\n",
     "script.sql:1: unexpected function name (abc) in command \"set\"\n\\set i abc\n         ^ "
     "error found here\n"},
    {"1.e", "\\set i 1.e\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i 1.e\n         ^ error found here\n"},
    {"second line error", "SELECT 1;\n-- c\n\\set x 1 +\n",
     "script.sql:3: syntax error in command \"set\"\n\\set x 1 +\n          ^ error found here\n"},
    {"function name error then lexer error", "\\set i abc ;\n",
     "script.sql:1: unexpected character (;) in command \"set\"\n\\set i abc ;\n           ^ error "
     "found here\n"},
    {"args error before overflow", "\\set i least() 99999999999999999999\n",
     "script.sql:1: bigint constant overflow (99999999999999999999) in command \"set\"\n\\set i "
     "least() 99999999999999999999\n                                  ^ error found here\n"},
    {"keyword as function", "\\set i case(1)\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i case(1)\n           ^ error found "
     "here\n"},
    {"is without null", "\\set i 1 is 2\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i 1 is 2\n            ^ error found "
     "here\n"},
    {"empty parens", "\\set i ()\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i ()\n        ^ error found here\n"},
    {"leading comma", "\\set i debug(least(,3))\n", ""},
    {"double comma", "\\set i least(1,,2)\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i least(1,,2)\n               ^ error "
     "found here\n"},
    {"colon alone", "\\set i :\n",
     "script.sql:1: unexpected character (:) in command \"set\"\n\\set i :\n       ^ error found "
     "here\n"},
    {"case no when", "\\set i case else 1 end\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i case else 1 end\n               ^ "
     "error found here\n"},
    {"case no end", "\\set i case when true then 1\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i case when true then 1\n               "
     "             ^ error found here\n"},
    {"uppercase cmd", "\\SET\n", "script.sql:1: missing argument in command \"SET\"\n"},
    {"crlf set", "\\set i 1 +\r\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i 1 +\n           ^ error found here\n"},
    {"sql then if", "SELECT 1;\n\\if 1\n",
     "condition error in script \"script.sql\" command 3: \\if without matching \\endif\n"},
    {"nested ok", "\\if 1\n\\if 0\n\\else\n\\endif\n\\elif 1\n\\else\n\\endif\n", ""},
    {"endif extra", "\\if 1\n\\endif\n\\endif\n",
     "condition error in script \"script.sql\" command 3: \\endif without matching \\if\n"},
    {"setshell ok", "\\setshell v echo 1\n", ""},
    {"gset prefix ok", "SELECT 1 AS x \\gset p_\n", ""},
    {"aset semicolon", "SELECT 1 AS x;\n\\aset\n", ""},
    {"too many meta args set", "\\set i 1 1\n",
     "script.sql:1: syntax error in command \"set\"\n\\set i 1 1\n         ^ error found here\n"},
    {"backslash alone", "\\\nSELECT 1;\n", ""},
    {"if tilde", "\\if ~\n\\endif\n",
     "script.sql:1: syntax error in command \"if\"\n\\if ~\n     ^ error found here\n"},
};

TEST(LoadErrorsTest, MatchPgbench) {
    for (const LoadCase& c : k_load_error_cases) {
        EXPECT_EQ(test::load_error(c.source), c.expected) << c.name;
    }
}

TEST(LoadErrorsTest, ExitCodeIsOne) {
    ScriptSet set;
    Status st = set.add("f", "f", "\\set i 1 +\n", 1);
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().exit_code, 1);
}

} // namespace
} // namespace pglab::script
