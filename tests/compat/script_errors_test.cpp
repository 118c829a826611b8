// PGBENCH.md §8.5: 001_pgbench_with_server.pl's runtime/parse error matrix, run through pgbench
// and `pglab bench` with the same options and script: same exit code, stdout empty (exit 1) or
// `processed: 0/1` (exit 2), and the TAP stderr regexes on both outputs.
#include "script_compat_util.hpp"

namespace pglab::script_compat {
namespace {

constexpr const char* k_options =
    "-n -t 1 -Dfoo=bla -Dnull=null -Dtrue=true -Done=1 -Dzero=0.0 -Dbadtrue=trueXXX "
    "-Dmaxint=9223372036854775807 -Dminint=-9223372036854775808 -M prepared";

struct ErrorCase {
    const char* name;
    std::string script;
    int exit_code;
    std::vector<std::string> err_regexes;
};

std::string repeat(const std::string& s, int n, const std::string& sep) {
    std::string out;
    for (int i = 0; i < n; ++i) {
        out += (i > 0 ? sep : "") + s;
    }
    return out;
}

const std::vector<ErrorCase>& error_cases() {
    static const std::vector<ErrorCase> k_cases = {
        {"sql syntax error",
         "SELECT 1 + ;\n",
         2,
         {R"(ERROR:  syntax error)", R"(prepared statement .* does not exist)"}},
        {"sql too many args",
         "\\set i 0\nSELECT LEAST(" + repeat(":i", 256, ", ") + ");\n",
         1,
         {R"(statement has too many arguments.*\b255\b)"}},
        {"shell bad command",
         "\\shell no-such-command\n",
         2,
         {R"(\(shell\) .* meta-command failed)"}},
        {"shell undefined variable",
         "\\shell echo ::foo :nosuchvariable\n",
         2,
         {R"(undefined variable ":nosuchvariable")"}},
        {"shell missing command", "\\shell\n", 1, {R"(missing command )"}},
        {"shell too many args",
         "\\shell echo " + repeat("arg", 255, " ") + "\n",
         1,
         {R"(too many arguments in command "shell")"}},
        {"set syntax error", "\\set i 1 +\n", 1, {R"(syntax error in command "set")"}},
        {"set no such function", "\\set i noSuchFunction()\n", 1, {R"(unexpected function name)"}},
        {"set invalid variable name", "\\set . 1\n", 2, {R"(invalid variable name)"}},
        {"set division by zero", "\\set i 1/0\n", 2, {R"(division by zero)"}},
        {"set undefined variable",
         "\\set i :nosuchvariable\n",
         2,
         {R"(undefined variable "nosuchvariable")"}},
        {"set unexpected char", "\\set i ;\n", 1, {R"(unexpected character .;.)"}},
        {"set too many args",
         "\\set i least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)\n",
         2,
         {R"(too many function arguments)"}},
        {"set empty random range", "\\set i random(5,3)\n", 2, {R"(empty range given to random)"}},
        {"set random range too large",
         "\\set i random(:minint, :maxint)\n",
         2,
         {R"(random range is too large)"}},
        {"set gaussian param too small",
         "\\set i random_gaussian(0, 10, 1.0)\n",
         2,
         {R"(gaussian param.* at least 2)"}},
        {"set exponential param greater 0",
         "\\set i random_exponential(0, 10, 0.0)\n",
         2,
         {R"(exponential parameter must be greater )"}},
        {"set zipfian param to 1",
         "\\set i random_zipfian(0, 10, 1)\n",
         2,
         {R"(zipfian parameter must be in range \[1\.001, 1000\])"}},
        {"set zipfian param too large",
         "\\set i random_zipfian(0, 10, 1000000)\n",
         2,
         {R"(zipfian parameter must be in range \[1\.001, 1000\])"}},
        {"set non numeric value",
         "\\set i :foo + 1\n",
         2,
         {R"(malformed variable "foo" value: "bla")"}},
        {"set no expression", "\\set i\n", 1, {R"(syntax error)"}},
        {"set missing argument", "\\set\n", 1, {R"((?:M|m)issing argument)"}},
        {"set not a bool", "\\set b NOT 0.0\n", 2, {R"(cannot coerce double to boolean)"}},
        {"set not an int", "\\set i TRUE + 2\n", 2, {R"(cannot coerce boolean to int)"}},
        {"set not a double", "\\set d ln(TRUE)\n", 2, {R"(cannot coerce boolean to double)"}},
        {"set case error",
         "\\set i CASE TRUE THEN 1 ELSE 0 END\n",
         1,
         {R"(syntax error in command "set")"}},
        {"set random error",
         "\\set b random(FALSE, TRUE)\n",
         2,
         {R"(cannot coerce boolean to int)"}},
        {"set number of args mismatch",
         "\\set d ln(1.0, 2.0))\n",
         1,
         {R"(unexpected number of arguments)"}},
        {"set at least one arg", "\\set i greatest())\n", 1, {R"(at least one argument expected)"}},
        {"set double to int overflow",
         "\\set i int(1E32)\n",
         2,
         {R"(double to int overflow for 100)"}},
        {"set bigint add overflow", "\\set i (1<<62) + (1<<62)\n", 2, {R"(int add out)"}},
        {"set bigint sub overflow",
         "\\set i 0 - (1<<62) - (1<<62) - (1<<62)\n",
         2,
         {R"(int sub out)"}},
        {"set bigint mul overflow", "\\set i 2 * (1<<62)\n", 2, {R"(int mul out)"}},
        {"set bigint div out of range",
         "\\set i :minint / -1\n",
         2,
         {R"(bigint div out of range)"}},
        {"setshell not an int",
         "\\setshell i echo -n one\n",
         2,
         {R"(command must return an integer)"}},
        {"setshell missing arg", "\\setshell var\n", 1, {R"(missing argument )"}},
        {"setshell no such command",
         "\\setshell var no-such-command\n",
         2,
         {R"(could not read result )"}},
        {"sleep undefined variable",
         "\\sleep :nosuchvariable\n",
         2,
         {R"(sleep: undefined variable)"}},
        {"sleep too many args", "\\sleep too many args\n", 1, {R"(too many arguments)"}},
        {"sleep missing arg", "\\sleep\n", 1, {R"(missing argument)", R"(\\sleep)"}},
        {"sleep unknown unit", "\\sleep 1 week\n", 1, {R"(unrecognized time unit)"}},
        {"misc invalid backslash command",
         "\\nosuchcommand\n",
         1,
         {R"(invalid command .* "nosuchcommand")"}},
        {"misc empty script", "", 1, {R"(empty command list for script)"}},
        {"bad boolean", "\\set b :badtrue or true\n", 2, {R"(malformed variable.*trueXXX)"}},
        {"invalid permute size",
         "\\set i permute(0, 0)\n",
         2,
         {R"(permute size parameter must be greater than zero)"}},
        {"gset no row", "SELECT WHERE FALSE \\gset\n", 2, {R"(expected one row, got 0\b)"}},
        {"gset alone", "\\gset\n", 1, {R"(gset must follow an SQL command)"}},
        {"gset no SQL", "\\set i +1\n\\gset\n", 1, {R"(gset must follow an SQL command)"}},
        {"gset too many arguments", "SELECT 1 \\gset a b\n", 1, {R"(too many arguments)"}},
        {"gset after gset",
         "SELECT 1 AS i \\gset\n\\gset\n",
         1,
         {R"(gset must follow an SQL command)"}},
        {"gset non SELECT",
         "DROP TABLE IF EXISTS no_such_table \\gset\n",
         2,
         {R"(expected one row, got 0)"}},
        {"gset bad default name",
         "SELECT 1 \\gset\n",
         2,
         {R"(error storing into variable \?column\?)"}},
        {"gset bad name",
         "SELECT 1 AS \"bad name!\" \\gset\n",
         2,
         {R"(error storing into variable bad name!)"}},
    };
    return k_cases;
}

class ScriptErrorTest : public testing::TestWithParam<ErrorCase> {};

TEST_P(ScriptErrorTest, SameFailureAsPgbench) {
    const ErrorCase& c = GetParam();
    std::string file_name = std::string("001_pgbench_error_") + c.name;
    std::replace(file_name.begin(), file_name.end(), ' ', '_');
    const std::string file = write_script(file_name, c.script);
    const std::vector<std::string> out_regexes = {c.exit_code == 1 ? "^$" : R"(processed: 0/1)"};
    for (Tool tool : {Tool::pgbench, Tool::pglab}) {
        const Outcome r = run_tool(tool, k_options, {file});
        expect_tap(r, tool, c.exit_code, out_regexes, c.err_regexes);
    }
}

INSTANTIATE_TEST_SUITE_P(Matrix, ScriptErrorTest, testing::ValuesIn(error_cases()),
                         [](const testing::TestParamInfo<ErrorCase>& p) {
                             std::string name = p.param.name;
                             for (char& ch : name) {
                                 if (std::isalnum(static_cast<unsigned char>(ch)) == 0) {
                                     ch = '_';
                                 }
                             }
                             return name;
                         });

} // namespace
} // namespace pglab::script_compat
