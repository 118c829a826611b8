// tests/unit/lab: bad experiment files are refused with `file:line:column: message` and a
// one-line fix hint: unknown keys, wrong types, invalid values, undefined references,
// duplicates. Data-driven: each case is a file, the first problem and a part of its hint.
#include <gmock/gmock.h>

#include "experiment_test_util.hpp"

namespace pglab::lab::experiment {
namespace {

using ::testing::HasSubstr;

struct ErrorCase {
    const char* what;
    const char* text;
    const char* headline; ///< the whole first problem, "t.toml:L:C: message"
    const char* hint;     ///< a part of its hint
};

const ErrorCase k_cases[] = {
    {"misspelt matrix key", "[matrix]\nclients = [1]\nclinets = [2]\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:3:1: unknown key \"clinets\" in [matrix] (did you mean \"clients\"?)",
     "free variables go under params.NAME"},
    {"unknown top-level key", "repeats = 3\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:1:1: unknown key \"repeats\" in the top level (did you mean \"repeat\"?)",
     "allowed keys here"},
    {"wrong type", "repeat = \"3\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:1:10: \"repeat\" in the top level must be an integer, not a string", "repeat = 3"},
    {"out of range", "repeat = 0\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:1:10: \"repeat\" in the top level must be between 1 and 10000, not 0", "repeat = 3"},
    {"bad order", "order = \"randm\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:1:9: invalid value \"randm\" for \"order\" in the top level (did you mean "
     "\"random\"?)",
     "\"as-written\", \"random\", \"interleaved\" or \"paired\""},
    {"bad on_error", "on_error = \"ignore\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:1:12: invalid value \"ignore\" for \"on_error\" in the top level",
     "\"stop\" or "
     "\"continue\""},
    {"negative seed", "seed = -1\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:1:8: \"seed\" in the top level must be between 0 and 9223372036854775807, not -1",
     "seed = 42"},
    {"no steps", "repeat = 2\n", "t.toml:1:1: the experiment has no steps", "[[steps]]"},
    {"step without type", "[[steps]]\nsql = \"x\"\n", "t.toml:1:1: step 1 has no \"type\"",
     "\"timed-sql\""},
    {"unknown step type", "[[steps]]\ntype = \"explan\"\n",
     "t.toml:2:8: unknown step type \"explan\" (did you mean \"explain\"?)", "\"checkpoint\""},
    {"key of another step type", "[[steps]]\ntype = \"bench\"\nsql = \"SELECT 1\"\n",
     "t.toml:3:1: key \"sql\" does not apply to step 1 (bench)", "other step types"},
    {"unknown step key", "[[steps]]\ntype = \"bench\"\noptoins = [\"-n\"]\n",
     "t.toml:3:1: unknown key \"optoins\" in step 1 (bench) (did you mean \"options\"?)",
     "\"options\""},
    {"sql step without sql", "[[steps]]\ntype = \"sql\"\n",
     "t.toml:1:1: a \"sql\" step needs \"sql\"", "sql = \"...\""},
    {"sleep without duration", "[[steps]]\ntype = \"sleep\"\n",
     "t.toml:1:1: a \"sleep\" step needs \"duration\"", "duration = \"1s\""},
    {"bad duration", "[[steps]]\ntype = \"sleep\"\nduration = \"5 parsecs\"\n",
     "t.toml:3:12: invalid duration for \"duration\" in step 1 (sleep)", "ms, s, min or h"},
    {"bad sync_delay", "[servers.a]\nsync_delay = \"2 weeks\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:14: invalid \"sync_delay\" in [servers.a]: a duration of at most 1s is expected",
     "sync_delay = \"2ms\""},
    {"sync_delay over a second", "[servers.a]\nsync_delay = \"2s\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:14: invalid \"sync_delay\" in [servers.a]: a duration of at most 1s is expected",
     "units us, ms, s"},
    {"bad memory_limit", "[servers.a]\nmemory_limit = \"1 GiB\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:16: invalid \"memory_limit\" in [servers.a]: a size of at least 16MB is expected",
     "memory_limit = \"512MB\""},
    {"memory_limit too small", "[servers.a]\nmemory_limit = 1000\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:16: invalid \"memory_limit\" in [servers.a]: a size of at least 16MB is expected",
     "units kB, MB, GB, TB"},
    {"sync_delay of an existing server",
     "[servers.a]\nconninfo = \"host=x\"\nsync_delay = \"2ms\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:3:1: \"sync_delay\" cannot be used with \"conninfo\" in [servers.a]: pglab does not "
     "manage an existing server",
     "remove \"sync_delay\""},
    {"sample_waits too often", "[[steps]]\ntype = \"bench\"\nsample_waits = \"1ms\"\n",
     "t.toml:3:1: \"sample_waits\" must be at least 10ms (a sample costs the server a scan of its "
     "sessions)",
     "sample_waits = \"100ms\""},
    {"sample_waits of an unmeasured step",
     "[[steps]]\ntype = \"bench\"\nmeasure = false\nsample_waits = \"100ms\"\n",
     "t.toml:4:1: \"sample_waits\" applies to a measured step: the samples are recorded with its "
     "probes",
     "measure = true"},
    {"sample_waits of a sleep",
     "[[steps]]\ntype = \"sleep\"\nduration = \"1s\"\nsample_waits = \"1s\"\n",
     "t.toml:4:1: \"sample_waits\" applies to a measured step: the samples are recorded with its "
     "probes",
     "sample a bench"},
    {"undefined session",
     "[sessions.s1]\n[[steps]]\ntype = \"sql\"\nsql = \"x\"\nsession = \"s2\"\n",
     "t.toml:2:1: step 1 uses undefined session \"s2\" (did you mean \"s1\"?)", "[sessions.s2]"},
    {"undefined script", "[[steps]]\ntype = \"bench\"\nscripts = [\"tx\"]\n",
     "t.toml:3:12: step 1 uses undefined script \"tx\"", "[scripts.tx]"},
    {"unknown builtin", "[[steps]]\ntype = \"bench\"\nscripts = [\"builtin:tpcc\"]\n",
     "t.toml:3:12: unknown built-in script \"tpcc\"", "builtin:select-only"},
    {"script without text", "[scripts.tx]\n[[steps]]\ntype = \"bench\"\nscripts = [\"tx\"]\n",
     "t.toml:1:10: script \"tx\" has neither \"text\" nor \"file\"", "file = \"tx.sql\""},
    {"missing script file",
     "[scripts.tx]\nfile = \"no-such.sql\"\n[[steps]]\ntype = \"bench\"\nscripts = [\"tx\"]\n",
     "t.toml:2:8: could not read script file \"" PGLAB_SOURCE_DIR "/experiments/no-such.sql\"",
     "experiment file's directory"},
    {"duplicate step name",
     "[[steps]]\ntype = \"bench\"\nname = \"a\"\n[[steps]]\ntype = \"checkpoint\"\nname = \"a\"\n",
     "t.toml:4:1: duplicate step name \"a\"", "its own name"},
    {"duplicate matrix value", "[matrix]\nclients = [1, 2, 1]\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:18: duplicate value 1 for \"clients\"", "\"repeat\""},
    {"duplicate matrix variable",
     "[matrix]\nsettings.work_mem = [\"4MB\"]\n\"settings.work_mem\" = [\"8MB\"]\n[[steps]]\ntype "
     "= "
     "\"bench\"\n",
     "t.toml:3:1: duplicate matrix variable \"settings.work_mem\"", "one list"},
    {"empty matrix variable", "[matrix]\nclients = []\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:1: matrix variable \"clients\" has no values", "clients = [1, 2]"},
    {"bad clients value", "[matrix]\nclients = [1, 0]\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:15: invalid value of \"clients\" in [matrix]: 0", "positive integers"},
    {"fractional duration", "[matrix]\nduration = [\"1.5s\"]\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:13: invalid value of \"duration\" in [matrix]: 1.5s", "whole seconds"},
    {"duration and transactions",
     "[matrix]\nduration = [10]\ntransactions = [100]\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:3:1: \"duration\" and \"transactions\" cannot both be matrix variables", "keep one"},
    {"table as matrix value", "[matrix]\nclients = [{ a = 1 }]\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:12: a value of \"clients\" in [matrix] must be a string, number or boolean, not a "
     "table",
     "single value"},
    {"undefined server in matrix",
     "[servers.pg16]\n[servers.pg17]\n[matrix]\nserver = [\"pg16\", \"pg18\"]\n[[steps]]\ntype = "
     "\"bench\"\n",
     "t.toml:4:19: [matrix] \"server\" names undefined server \"pg18\" (did you mean \"pg16\"?)",
     "[servers.pg18]"},
    {"several servers, none chosen", "[servers.a]\n[servers.b]\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:1:1: several servers (\"a\", \"b\") and nothing says which one the runs use",
     "server = \"a\""},
    {"version and bin_dir",
     "[servers.a]\nversion = \"16\"\nbin_dir = \"/x\"\n[[steps]]\ntype = "
     "\"bench\"\n",
     "t.toml:3:1: \"version\" and \"bin_dir\" cannot both be given in [servers.a]", "keep one"},
    {"bad version", "[servers.a]\nversion = \"sixteen\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:11: invalid PostgreSQL version \"sixteen\" in [servers.a]", "\"17.8\""},
    {"pre-release without its number",
     "[servers.a]\nversion = \"19rc\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:11: invalid PostgreSQL version \"19rc\" in [servers.a]", "\"19rc1\""},
    {"bad auth", "[servers.a]\nauth = \"md5\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:8: invalid value \"md5\" for \"auth\" in [servers.a]", "\"scram-sha-256\""},
    {"conninfo with initdb",
     "[servers.a]\nconninfo = \"host=x\"\ninitdb = [\"-k\"]\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:3:1: \"initdb\" cannot be used with \"conninfo\" in [servers.a]: pglab does not "
     "manage an existing server",
     "remove \"initdb\""},
    {"standby of itself", "[servers.a]\nstandby_of = \"a\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:2:14: server \"a\" cannot be its own standby", "standby_of"},
    {"standby loop",
     "[servers.p]\n[servers.a]\nstandby_of = \"b\"\n[servers.b]\nstandby_of = \"a\"\n[[steps]]\n"
     "type = \"bench\"\n",
     "t.toml:3:14: the standby chain of server \"a\" is a loop", "primary"},
    {"undefined variable in sql", "[[steps]]\ntype = \"sql\"\nsql = \"SELECT ${clinets}\"\n",
     "t.toml:3:15: undefined variable \"${clinets}\"", "use a [matrix] variable"},
    {"matrix variable not in matrix",
     "[[steps]]\ntype = \"bench\"\noptions = [\"--client=${clients}\"]\n",
     "t.toml:3:22: undefined variable \"${clients}\"", "add it to [matrix]: clients = [...]"},
    {"unterminated substitution", "[[steps]]\ntype = \"shell\"\ncommand = \"echo ${x\"\n",
     "t.toml:3:17: unterminated \"${\"", "$${"},
    {"filter syntax",
     "[matrix]\nclients = [1]\nfilter = \"clients >\"\n[[steps]]\ntype = "
     "\"bench\"\n",
     "t.toml:3:20: invalid filter: expression ends where a value was expected", "clients >= 4"},
    {"filter undefined name",
     "[matrix]\nclients = [1]\nfilter = \"client > 1\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:3:11: undefined variable \"client\" in the filter (did you mean \"clients\"?)",
     "use a [matrix] variable"},
    {"when undefined name", "[[steps]]\ntype = \"checkpoint\"\nwhen = \"params.index\"\n",
     "t.toml:3:9: undefined variable \"params.index\" in \"when\"", "params.index = [...]"},
    {"invalid TOML", "repeat = = 3\n",
     "t.toml:1:10: invalid TOML: Error while parsing value: could not determine value type",
     "TOML syntax"},
    {"backslash in basic string",
     "[scripts.x]\ntext = \"\"\"\n\\sleep 1\n\"\"\"\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:3:2: invalid TOML: Error while parsing string: unknown escape sequence '\\s'",
     "'''...''' literal strings"},
    {"bad step name", "[[steps]]\ntype = \"bench\"\nname = \"two words\"\n",
     "t.toml:3:1: invalid step name \"two words\"", "starting with a letter"},
    {"session declared as default", "[sessions.default]\n[[steps]]\ntype = \"bench\"\n",
     "t.toml:1:11: session \"default\" cannot be declared", "another name"},
    {"steps not tables", "steps = [1]\n", "t.toml:1:10: step 1 must be a table, not a integer",
     "[[steps]]"},
    {"options element not string", "[[steps]]\ntype = \"bench\"\noptions = [\"-n\", 4]\n",
     "t.toml:3:18: elements of \"options\" in step 1 (bench) must be strings, not a integer",
     "quote every element"},
};

class SpecErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SpecErrorTest, FirstProblemAndHint) {
    const ErrorCase& c = GetParam();
    ParseOutcome out = testing::parse_text(c.text);
    ASSERT_FALSE(out.spec.has_value()) << c.what;
    ASSERT_FALSE(out.diagnostics.items().empty());
    const Diagnostic& d = out.diagnostics.items().front();
    EXPECT_EQ(d.headline(), c.headline) << c.what;
    EXPECT_THAT(d.hint, HasSubstr(c.hint)) << c.what;
}

INSTANTIATE_TEST_SUITE_P(Cases, SpecErrorTest, ::testing::ValuesIn(k_cases),
                         [](const ::testing::TestParamInfo<ErrorCase>& param_info) {
                             std::string name = param_info.param.what;
                             for (char& ch : name) {
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) {
                                     ch = '_';
                                 }
                             }
                             return name;
                         });

TEST(SpecErrorsTest, EveryProblemIsReportedAtOnce) {
    ParseOutcome out = testing::parse_text("repeat = 0\norder = \"x\"\n[matrix]\nclinets = [1]\n");
    ASSERT_FALSE(out.spec.has_value());
    EXPECT_EQ(out.diagnostics.count(), 4u);
    // In line order (the file-wide "no steps" at 1:1 first), not in the order found.
    const Error e = out.diagnostics.to_error();
    EXPECT_THAT(e.message, HasSubstr("t.toml:1:1: the experiment has no steps"));
    const auto at = [&](const char* text) { return e.trailer.find(text); };
    EXPECT_NE(at("t.toml:1:10:"), std::string::npos) << e.trailer;
    EXPECT_LT(at("t.toml:1:10:"), at("t.toml:2:9: invalid value \"x\" for \"order\""));
    EXPECT_LT(at("t.toml:2:9:"), at("t.toml:4:1: unknown key \"clinets\""));
    EXPECT_NE(at("t.toml:4:1:"), std::string::npos) << e.trailer;
    EXPECT_THAT(e.trailer, HasSubstr("  hint: "));
}

TEST(SpecErrorsTest, AHugeUnknownKeyIsNamedByItsStartAndLength) {
    const std::string huge(100000, 'k');
    ParseOutcome out = testing::parse_text(huge + " = 1\n[[steps]]\ntype = \"bench\"\n");
    const Error e = out.diagnostics.to_error();
    EXPECT_LT(e.message.size() + e.hint.size() + e.trailer.size(), 2000u)
        << e.message.substr(0, 300);
    EXPECT_THAT(e.message, HasSubstr("(100000 characters)"));
}

TEST(SpecErrorsTest, ParseExperimentReturnsOneError) {
    auto r = parse_experiment("[[steps]]\ntype = \"bnch\"\n", "x.toml", ".");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message,
              "x.toml:2:8: unknown step type \"bnch\" (did you mean \"bench\"?)");
    EXPECT_THAT(r.error().hint, HasSubstr("\"bench\""));
}

TEST(SpecErrorsTest, SettingNameHookGetsEveryNameWithItsPosition) {
    ParseOptions options;
    std::vector<SettingRef> seen;
    options.check_settings = [&](const std::vector<SettingRef>& refs, Diagnostics& diag) {
        seen = refs;
        check_setting_names(refs, {"shared_buffers", "work_mem", "fsync"}, diag);
    };
    ParseOutcome out = testing::parse_text(R"toml(
[servers.a]
settings = { shared_bufers = "1GB", Work_Mem = "4MB", "auto_explain.log_analyze" = true }
[matrix]
settings.fsync = [true, false]
settings.wal_sync_metod = ["fsync"]
[[steps]]
type = "bench"
)toml",
                                           options);
    ASSERT_EQ(seen.size(), 5u);
    EXPECT_EQ(seen[0].server, "a");
    EXPECT_EQ(seen[3].name, "fsync");
    EXPECT_EQ(seen[3].server, "");
    ASSERT_FALSE(out.spec.has_value());
    ASSERT_EQ(out.diagnostics.count(), 2u);
    EXPECT_EQ(out.diagnostics.items()[0].headline(),
              "t.toml:3:14: unknown setting \"shared_bufers\" (did you mean \"shared_buffers\"?)");
    EXPECT_EQ(out.diagnostics.items()[1].headline(),
              "t.toml:6:10: unknown setting \"wal_sync_metod\"");
}

TEST(SpecErrorsTest, SettingNameCheckAsStatus) {
    const std::vector<SettingRef> refs{{"work_mem", "", {"f.toml", 1, 1}},
                                       {"workmem", "", {"f.toml", 2, 3}}};
    const Status st = check_setting_names(refs, {"work_mem"});
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().message, "f.toml:2:3: unknown setting \"workmem\" (did you mean "
                                  "\"work_mem\"?)");
    EXPECT_TRUE(check_setting_names({refs[0]}, {"WORK_MEM"}));
}

} // namespace
} // namespace pglab::lab::experiment
