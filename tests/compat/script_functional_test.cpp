// PGBENCH.md §8.3 and §8.4: 001_pgbench_with_server.pl's expression test and functional script
// tests (ifs, seeded random, backslash commands, \gset / \aset, pipelines, COPY), run through
// pgbench and `pglab bench` against the test server. Both must give the TAP exit code and match
// the TAP regexes; their debug() lines must be identical.
#include <fstream>
#include <sstream>

#include "script_compat_util.hpp"

namespace pglab::script_compat {
namespace {

struct FunctionalCase {
    const char* name; ///< the script file is 001_pgbench_<name>
    const char* options;
    std::string script;
    int exit_code;
    std::vector<std::string> out_regexes;
    std::vector<std::string> err_regexes;
    bool pglab_only = false; ///< pgbench 17+ features: pglab, as pgbench 18, checked against the
                             ///< TAP values
};

std::string times(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) {
        out += s;
    }
    return out;
}

const char* const k_nested_if = R"(\if false
	SELECT 1 / 0;
	\if true
		SELECT 1 / 0;
	\elif true
		SELECT 1 / 0;
	\else
		SELECT 1 / 0;
	\endif
	SELECT 1 / 0;
\elif false
	\if true
		SELECT 1 / 0;
	\elif true
		SELECT 1 / 0;
	\else
		SELECT 1 / 0;
	\endif
\else
	\if false
		SELECT 1 / 0;
	\elif false
		SELECT 1 / 0;
	\else
		SELECT 'correct';
	\endif
\endif
\if true
	SELECT 'correct';
\else
	\if true
		SELECT 1 / 0;
	\elif true
		SELECT 1 / 0;
	\else
		SELECT 1 / 0;
	\endif
\endif
)";

const std::vector<FunctionalCase>& functional_cases() {
    static const std::vector<FunctionalCase> k_cases = {
        {"nested_if",
         "--no-vacuum --client=1 --transactions=1",
         k_nested_if,
         0,
         {R"(actually processed)"},
         {"^$"}},
        {"backslash_commands",
         "-t 1",
         "-- run set\n\\set zero 0\n\\set one 1.0\n-- sleep\n\\sleep :one ms\n\\sleep 100 us\n"
         "\\sleep 0 s\n\\sleep :zero\n-- setshell and continuation\n\\setshell another_one\\\n"
         "  echo \\\n    :one\n\\set n debug(:another_one)\n-- shell\n"
         "\\shell echo shell-echo-output\n",
         0,
         {R"(type: .*/001_pgbench_backslash_commands)", R"(processed: 1/1)",
          R"(shell-echo-output)"},
         {R"(command=8.: int 1\b)"}},
        {"gset",
         "-t 1",
         "-- test gset\n-- no columns\nSELECT \\gset\n-- one value\nSELECT 0 AS i0 \\gset\n"
         "\\set i debug(:i0)\n-- two values\nSELECT 1 AS i1, 2 AS i2 \\gset\n"
         "\\set i debug(:i1)\n\\set i debug(:i2)\n-- with prefix\nSELECT 3 AS i3 \\gset x_\n"
         "\\set i debug(:x_i3)\n-- overwrite existing variable\nSELECT 0 AS i4, 4 AS i4 \\gset\n"
         "\\set i debug(:i4)\n-- work on the last SQL command under \\;\n"
         "\\; \\; SELECT 0 AS i5 \\; SELECT 5 AS i5 \\; \\; \\gset\n\\set i debug(:i5)\n",
         0,
         {R"(type: .*/001_pgbench_gset)", R"(processed: 1/1)"},
         {R"(command=3.: int 0\b)", R"(command=5.: int 1\b)", R"(command=6.: int 2\b)",
          R"(command=8.: int 3\b)", R"(command=10.: int 4\b)", R"(command=12.: int 5\b)"}},
        {"gset_two_rows",
         "-t 1",
         "SELECT 5432 AS fail UNION SELECT 5433 ORDER BY 1 \\gset\n",
         2,
         {R"(type: .*/001_pgbench_gset_two_rows)", R"(processed: 0/1)"},
         {R"(expected one row, got 2\b)"}},
        {"aset",
         "-t 1",
         "-- test aset, which applies to a combined query\n"
         "\\; SELECT 6 AS i6 \\; SELECT 7 AS i7 \\; \\aset\n"
         "-- unless it returns more than one row, last is kept\n"
         "SELECT 8 AS i6 UNION SELECT 9 ORDER BY 1 DESC \\aset\n"
         "\\set i debug(:i6)\n\\set i debug(:i7)\n",
         0,
         {R"(type: .*/001_pgbench_aset)", R"(processed: 1/1)"},
         {R"(command=3.: int 8\b)", R"(command=4.: int 7\b)"}},
        {"aset_empty",
         "-t 1",
         "-- empty result\n\\; SELECT 5432 AS i8 WHERE FALSE \\; \\aset\n\\set i debug(:i8)\n",
         2,
         {R"(type: .*/001_pgbench_aset_empty)", R"(processed: 0/1)"},
         {R"(undefined variable \"i8\")", R"(evaluation of meta-command failed\b)"}},
        {"pipeline",
         "-t 1 -n -M extended",
         "-- test startpipeline\n\\startpipeline\n" + times("select 1;\n", 10) + "\\endpipeline\n",
         0,
         {R"(type: .*/001_pgbench_pipeline)", R"(actually processed: 1/1)"},
         {}},
        {"pipeline_prep",
         "-t 1 -n -M prepared",
         "-- test startpipeline\n\\startpipeline\n\\endpipeline\n\\startpipeline\n"
             + times("select 1;\n", 10) + "\\endpipeline\n",
         0,
         {R"(type: .*/001_pgbench_pipeline_prep)", R"(actually processed: 1/1)"},
         {}},
        {"pipeline_2",
         "-t 1 -n -M extended",
         "-- startpipeline twice\n\\startpipeline\n\\startpipeline\n",
         2,
         {},
         {R"(already in pipeline mode)"}},
        {"pipeline_3",
         "-t 1 -n -M extended",
         "-- pipeline not started\n\\endpipeline\n",
         2,
         {},
         {R"(not in pipeline mode)"}},
        {"pipeline_4",
         "-t 1 -n -M extended",
         "-- gset not allowed\n\\startpipeline\nselect 1 \\gset f\n\\endpipeline\n",
         2,
         {},
         {R"(gset is not allowed in pipeline mode)"}},
        {"pipeline_5",
         "-t 1 -n -M extended",
         "-- pipeline opened\n\\startpipeline\n",
         2,
         {},
         {R"(end of script reached with pipeline open)"}},
        {"pipeline_6",
         "-t 2 -n -M extended",
         "-- pipeline opened\n\\startpipeline\n",
         2,
         {},
         {R"(end of script reached with pipeline open)"}},
        {"pipeline_serializable",
         "-c4 -t 10 -n -M prepared",
         "-- test serializable in a pipeline\n\\startpipeline\n"
         "BEGIN ISOLATION LEVEL SERIALIZABLE;\n"
             + times("select 1;\n", 10) + "END;\n\\endpipeline\n",
         0,
         {R"(type: .*/001_pgbench_pipeline_serializable)", R"(actually processed: (\d+)/\1)"},
         {}},
        {"incomplete_tx_block",
         "--no-vacuum",
         "BEGIN;SELECT 1;\n",
         2,
         {R"(processed: 1/10)"},
         {R"(client 0 aborted: end of script reached without completing the last transaction)"}},
        {"copy",
         "-t 10",
         " COPY pgbench_accounts FROM stdin ",
         2,
         {},
         {R"(COPY is not supported in pgbench, aborting)"}},
        {"pipeline_sync",
         "-t 1 -n -M extended",
         "\\startpipeline\nselect 1;\n\\syncpipeline\n\\syncpipeline\nselect 2;\n"
         "\\syncpipeline\nselect 3;\n\\endpipeline\n",
         0,
         {R"(type: .*/001_pgbench_pipeline_sync)", R"(actually processed: 1/1)"},
         {},
         true},
        {"pipeline_sync_open",
         "-t 2 -n -M extended",
         "-- sync without end\n\\startpipeline\n\\syncpipeline\n",
         2,
         {},
         {R"(end of script reached with pipeline open)"},
         true},
    };
    return k_cases;
}

class ScriptFunctionalTest : public testing::TestWithParam<FunctionalCase> {};

TEST_P(ScriptFunctionalTest, BehavesAsPgbench) {
    const FunctionalCase& c = GetParam();
    const std::string file = write_script(std::string("001_pgbench_") + c.name, c.script);
    std::vector<std::string> debug[2];
    for (Tool tool : {Tool::pgbench, Tool::pglab}) {
        if (tool == Tool::pgbench && c.pglab_only) {
            continue;
        }
        support::EnvOverrides env;
        if (c.pglab_only) {
            env.emplace_back("PGLAB_PGBENCH_VERSION", "18");
        }
        const Outcome r = run_tool(tool, c.options, {file}, env);
        expect_tap(r, tool, c.exit_code, c.out_regexes, c.err_regexes);
        debug[static_cast<int>(tool)] = debug_lines(r.err);
    }
    if (!c.pglab_only) {
        EXPECT_EQ(debug[0], debug[1]);
    }
}

INSTANTIATE_TEST_SUITE_P(Tap, ScriptFunctionalTest, testing::ValuesIn(functional_cases()),
                         [](const testing::TestParamInfo<FunctionalCase>& p) {
                             return std::string(p.param.name);
                         });

/// pgbench stores a NULL or empty column of \gset as an empty string, and an expression using
/// it fails without a message of its own: the stderr of both programs is the same.
TEST(ScriptEmptyVariableTest, SilentEvaluationFailureAsPgbench) {
    const std::string file = write_script(
        "empty_variable", "SELECT NULL AS n, '' AS e \\gset\n\\shell echo A :n B :e C\n"
                          "\\set x debug(:n)\n");
    std::vector<std::string> err[2];
    for (Tool tool : {Tool::pgbench, Tool::pglab}) {
        const Outcome r = run_tool(tool, "-n -t 1 -M extended", {file});
        expect_tap(r, tool, 2, {R"(processed: 0/1)", R"(A B C)"},
                   {R"(client 0 aborted in command 2 \(set\) of script 0; evaluation of )"
                    R"(meta-command failed)"});
        err[static_cast<int>(tool)] = stderr_lines(r.err);
    }
    EXPECT_EQ(err[0], err[1]);
}

/// §8.3: the expression script with the TAP options; every debug() line equal, and the values
/// the TAP test checks.
TEST(ScriptExpressionTest, SameDebugLinesAsPgbench) {
    std::ifstream in(std::string(PGLAB_SOURCE_DIR)
                     + "/tests/golden/script/tap/001_pgbench_expressions.sql");
    std::ostringstream text;
    text << in.rdbuf();
    const std::string file = write_script("001_pgbench_expressions", text.str());
    const char* options =
        "--random-seed=5432 -t 1 -Dfoo=-10.1 -Dbla=false -Di=+3 -Dn=null -Dt=t -Df=of -Dd=1.0";
    const std::vector<std::string> err_regexes = {
        R"(setting random seed to 5432\b)",
        R"(command=1.: int 17\b)",
        R"(command=2.: int 104\b)",
        R"(command=3.: int 1498\b)",
        R"(command=4.: int 4\b)",
        R"(command=5.: int 5\b)",
        R"(command=6.: int 6\b)",
        R"(command=7.: int 7\b)",
        R"(command=8.: int 8\b)",
        R"(command=9.: int 9\b)",
        R"(command=10.: int 10\b)",
        R"(command=11.: int 11\b)",
        R"(command=12.: int 12\b)",
        R"(command=15.: double 15\b)",
        R"(command=16.: double 16\b)",
        R"(command=17.: double 17\b)",
        R"(command=20.: int 3\b)",
        R"(command=21.: double -27\b)",
        R"(command=22.: double 1024\b)",
        R"(command=23.: double 1\b)",
        R"(command=24.: double 1\b)",
        R"(command=25.: double -0.125\b)",
        R"(command=26.: double -0.125\b)",
        R"(command=27.: double -0.00032\b)",
        R"(command=28.: double 8.50705917302346e\+0?37\b)",
        R"(command=29.: double 1e\+0?30\b)",
        R"(command=30.: boolean false\b)",
        R"(command=31.: boolean true\b)",
        R"(command=32.: int 32\b)",
        R"(command=33.: int 33\b)",
        R"(command=34.: double 34\b)",
        R"(command=35.: int 35\b)",
        R"(command=36.: int 36\b)",
        R"(command=37.: double 37\b)",
        R"(command=38.: int 38\b)",
        R"(command=39.: int 39\b)",
        R"(command=40.: boolean true\b)",
        R"(command=41.: null\b)",
        R"(command=42.: null\b)",
        R"(command=43.: boolean true\b)",
        R"(command=44.: boolean true\b)",
        R"(command=45.: boolean true\b)",
        R"(command=46.: int 46\b)",
        R"(command=47.: boolean true\b)",
        R"(command=48.: boolean true\b)",
        R"(command=49.: int -5817877081768721676\b)",
        R"(command=50.: boolean true\b)",
        R"(command=51.: int -7793829335365542153\b)",
        R"(command=52.: int -?\d+\b)",
        R"(command=53.: boolean true\b)",
        R"(command=65.: int 65\b)",
        R"(command=74.: int 74\b)",
        R"(command=83.: int 83\b)",
        R"(command=86.: int 86\b)",
        R"(command=93.: int 93\b)",
        R"(command=95.: int 0\b)",
        R"(command=96.: int 1\b)",
        R"(command=97.: int 0\b)",
        R"(command=98.: int 5432\b)",
        R"(command=99.: int -9223372036854775808\b)",
        R"(command=100.: int 9223372036854775807\b)",
        R"(command=101.: boolean true\b)",
        R"(command=102.: boolean true\b)",
        R"(command=103.: boolean true\b)",
        R"(command=104.: boolean true\b)",
        R"(command=105.: boolean true\b)",
        R"(command=109.: boolean true\b)",
        R"(command=110.: boolean true\b)",
        R"(command=111.: boolean true\b)",
        R"(command=113.: boolean true\b)",
    };
    std::vector<std::string> debug[2];
    for (Tool tool : {Tool::pgbench, Tool::pglab}) {
        const Outcome r = run_tool(tool, options, {file});
        expect_tap(r, tool, 0, {R"(type: .*/001_pgbench_expressions)", R"(processed: 1/1)"},
                   err_regexes);
        debug[static_cast<int>(tool)] = debug_lines(r.err);
    }
    EXPECT_FALSE(debug[0].empty());
    EXPECT_EQ(debug[0], debug[1]);
}

/// §8.4 "random seeded": two runs of each program with the same seed insert the same values,
/// and pglab's are pgbench's.
TEST(ScriptSeededRandomTest, SameInsertedValues) {
    ensure_database();
    psql("drop table if exists seeded_random; create unlogged table seeded_random(seed int8 not "
         "null, rand text not null, val integer not null)");
    const std::string file = write_script(
        "001_pgbench_random_seed",
        "-- test random functions\n\\set ur random(1000, 1999)\n"
        "\\set er random_exponential(2000, 2999, 2.0)\n"
        "\\set gr random_gaussian(3000, 3999, 3.0)\n\\set zr random_zipfian(4000, 4999, 1.5)\n"
        "INSERT INTO seeded_random(seed, rand, val) VALUES\n  (:random_seed, 'uniform', :ur),\n"
        "  (:random_seed, 'exponential', :er),\n  (:random_seed, 'gaussian', :gr),\n"
        "  (:random_seed, 'zipfian', :zr);\n");
    for (const char* seed : {"5432", "1234567890"}) {
        std::vector<std::string> values;
        for (Tool tool : {Tool::pgbench, Tool::pgbench, Tool::pglab, Tool::pglab}) {
            psql("truncate seeded_random");
            const Outcome r =
                run_tool(tool, std::string("--random-seed=") + seed + " -t 1", {file});
            expect_tap(r, tool, 0, {R"(processed: 1/1)"},
                       {std::string(R"(setting random seed to )") + seed + R"(\b)"});
            values.push_back(psql(std::string("select rand, val from seeded_random where seed = ")
                                  + seed + " order by rand"));
        }
        EXPECT_NE(values[0], "");
        for (size_t i = 1; i < values.size(); ++i) {
            EXPECT_EQ(values[i], values[0]) << "seed " << seed << ", run " << i;
        }
    }
}

} // namespace
} // namespace pglab::script_compat
