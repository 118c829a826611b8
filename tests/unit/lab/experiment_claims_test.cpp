// tests/unit/lab: `question`, `[[claims]]` and `[quick]` in experiment files: what is read, the
// problems reported at their file:line:column, and the quick form applied by ParseOptions::quick.
#include <gmock/gmock.h>

#include "experiment_test_util.hpp"

namespace pglab::lab::experiment {
namespace {

using testing::first_problem;
using ::testing::HasSubstr;
using testing::parse_ok;
using testing::parse_text;
using testing::problems;

const std::string k_head =
    "question = \"Does 12 write less WAL?\"\n"
    "repeat = 3\n"
    "[servers.pg11]\nversion = \"11\"\n"
    "[servers.pg12]\nversion = \"12\"\n"
    "[matrix]\nserver = [\"pg11\", \"pg12\"]\nparams.rows = 10000000\n"
    "[[steps]]\ntype = \"timed-sql\"\nname = \"build\"\nsql = \"SELECT 1\"\n";

TEST(SpecClaimsTest, RatioValueShapeAndUntestableClaimsAreRead) {
    const ExperimentSpec spec = parse_ok(k_head + R"(
[[claims]]
text = "12 writes 45% less WAL"
source = "seed 003"
step = "build"
metric = "probe:wal.bytes"
ratio = ["server=pg12", "server=pg11"]
paper = 0.553
tolerance = 0.15
explanation = "smaller table"

[[claims]]
text = "11 writes at least 100 MB"
step = "build"
metric = "probe:wal.bytes"
cell = "server=pg11"
at_least = 100
exact = true

[[claims]]
text = "flat"
step = "build"
metric = "client_ms"
shape = "flat"
over = "server"

[[claims]]
text = "needs ZFS"
untestable = "no ZFS here"

[[claims]]
text = "rises, then levels off"
step = "build"
metric = "client_ms"
shape = "levels_off"
over = "server"
min_step = 0.2
tolerance = 0.05
)");
    EXPECT_EQ(spec.question, "Does 12 write less WAL?");
    ASSERT_EQ(spec.claims.size(), 5U);
    const Claim& r = spec.claims[0];
    EXPECT_EQ(r.kind, ClaimKind::ratio);
    EXPECT_EQ(r.cell.text, "server=pg12");
    EXPECT_EQ(r.baseline.items,
              (std::vector<std::pair<std::string, std::string>>{{"server", "pg11"}}));
    EXPECT_DOUBLE_EQ(*r.paper, 0.553);
    EXPECT_DOUBLE_EQ(r.tolerance, 0.15);
    EXPECT_EQ(r.explanation, "smaller table");
    EXPECT_EQ(r.pos.line, 15U);
    EXPECT_EQ(spec.claims[1].kind, ClaimKind::value);
    EXPECT_DOUBLE_EQ(*spec.claims[1].at_least, 100.0);
    EXPECT_TRUE(spec.claims[1].exact);
    EXPECT_FALSE(r.exact);
    EXPECT_EQ(spec.claims[2].kind, ClaimKind::shape);
    EXPECT_EQ(spec.claims[2].over, "server");
    EXPECT_EQ(spec.claims[3].untestable, "no ZFS here");
    EXPECT_EQ(spec.claims[4].shape, Shape::levels_off);
    EXPECT_DOUBLE_EQ(spec.claims[4].min_step, 0.2);
    EXPECT_DOUBLE_EQ(spec.claims[4].tolerance, 0.05);
}

TEST(SpecClaimsTest, ComparisonsOfComparisonsAreRead) {
    const ExperimentSpec spec = parse_ok(k_head + R"(
[[claims]]
text = "the gain grows along the rows"
step = "build"
metric = "client_ms"
ratio = ["server=pg12", "server=pg11"]
shape = "increasing"
over = "params.rows"

[[claims]]
text = "the gain depends on the server"
step = "build"
metric = "client_ms"
ratio = ["server=pg12", "server=pg11"]
divided_by = ["server=pg11", "server=pg12"]
at_least = 1.1

[[claims]]
text = "12 varies more"
step = "build"
metric = "client_ms"
spread = ["server=pg12", "server=pg11"]
at_least = 1.5
)");
    ASSERT_EQ(spec.claims.size(), 3U);
    EXPECT_EQ(spec.claims[0].kind, ClaimKind::ratio_along);
    EXPECT_EQ(spec.claims[0].shape, Shape::increasing);
    EXPECT_EQ(spec.claims[0].baseline.text, "server=pg11");
    EXPECT_EQ(spec.claims[1].kind, ClaimKind::ratio_of_ratios);
    EXPECT_EQ(spec.claims[1].divided_by_cell.text, "server=pg11");
    EXPECT_EQ(spec.claims[1].divided_by_baseline.text, "server=pg12");
    EXPECT_EQ(spec.claims[2].kind, ClaimKind::spread);
    EXPECT_EQ(spec.claims[2].cell.text, "server=pg12");
    EXPECT_DOUBLE_EQ(*spec.claims[2].at_least, 1.5);
}

TEST(SpecClaimsTest, AProportionIsNotReadAsARatioOfRatios) {
    const std::string head = "[matrix]\nparams.scan = [\"on\", \"off\"]\nparams.size = [1, 2]\n"
                             "[[steps]]\ntype = \"explain\"\nname = \"range\"\n"
                             "sql = \"SELECT 1\"\n";
    EXPECT_EQ(
        first_problem(head
                      + "[[claims]]\ntext = \"x\"\nstep = \"range\"\n"
                        "metric = \"buffer_hit_pct\"\nratio = [\"params.scan=on params.size=1\", "
                        "\"params.scan=off params.size=1\"]\ndivided_by = "
                        "[\"params.scan=on params.size=2\", "
                        "\"params.scan=off params.size=2\"]\nat_least = 1\n"),
        "t.toml:11:11: \"buffer_hit_pct\" is a proportion: a ratio of ratios of it is not "
        "judged");
}

struct ClaimErrorCase {
    const char* what;
    const char* claim;
    const char* headline; ///< "t.toml:L:C: message"; the claim starts on line 16
    const char* hint;
};

const ClaimErrorCase k_errors[] = {
    {"unknown step", "text = \"x\"\nstep = \"buidl\"\nmetric = \"client_ms\"\npaper = 1\n",
     "t.toml:17:9: no step is named \"buidl\" (did you mean \"build\"?)", "\"build\""},
    {"no figure", "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\n",
     "t.toml:15:1: claim 1 gives no figure to test", "at_most = 0.6"},
    {"unknown variable in a selector",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\nratio = [\"server=pg12\", "
     "\"servr=pg11\"]\n"
     "paper = 1\n",
     "t.toml:19:26: \"servr\" is not a matrix variable (did you mean \"server\"?)", "\"server\""},
    {"unknown value in a selector",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\nratio = [\"server=pg13\", "
     "\"server=pg11\"]\n"
     "paper = 1\n",
     "t.toml:19:18: \"pg13\" is not a value of \"server\"", "\"pg11\" or \"pg12\""},
    {"ratio of one cell",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\nratio = [\"server=pg12\"]\npaper = "
     "1\n",
     "t.toml:19:9: \"ratio\" in claim 1 must be two cell selectors, not an array of 1",
     "the first over the second"},
    {"paper is text", "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\npaper = \"0.5\"\n",
     "t.toml:19:9: \"paper\" in claim 1 must be a finite number, not a string", "paper = 0.553"},
    {"unknown shape",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\nshape = \"flatt\"\nover = "
     "\"server\"\n",
     "t.toml:19:9: invalid value \"flatt\" for \"shape\" in claim 1 (did you mean \"flat\"?)",
     "\"increasing\""},
    {"shape along an unknown variable",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\nshape = \"flat\"\nover = "
     "\"clients\"\n",
     "t.toml:20:9: \"clients\" is not a matrix variable", "\"server\""},
    {"min_step on a flat shape",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\nshape = \"flat\"\nover = "
     "\"server\"\nmin_step = 0.1\n",
     "t.toml:21:1: \"min_step\" applies to an increasing, decreasing or levels_off shape, "
     "not a flat one",
     "min_step = 0.1"},
    {"exact shape",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\nshape = \"flat\"\nover = "
     "\"server\"\nexact = true\n",
     "t.toml:21:1: \"exact\" in claim 1 is for a ratio or a value, not a shape",
     "remove \"exact\""},
    {"no text", "step = \"build\"\nmetric = \"client_ms\"\npaper = 1\n",
     "t.toml:15:1: claim 1 has no \"text\"", "say the claim in words"},
    {"unknown key",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\npaper = 1\ntolerence = 1\n",
     "t.toml:20:1: unknown key \"tolerence\" in claim 1 (did you mean \"tolerance\"?)", ""},
    {"divided_by without a ratio",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\ndivided_by = [\"server=pg12\", "
     "\"server=pg11\"]\npaper = 1\n",
     "t.toml:19:1: \"divided_by\" divides a \"ratio\", and claim 1 has none", "(A/B) / (C/D)"},
    {"spread with a ratio",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\nratio = [\"server=pg12\", "
     "\"server=pg11\"]\nspread = [\"server=pg12\", \"server=pg11\"]\nat_least = 1\n",
     "t.toml:20:1: \"spread\" in claim 1 is a claim of its own, not with \"ratio\", "
     "\"divided_by\" or \"shape\"",
     "spread = [\"A\", \"B\"]"},
    {"a ratio along a variable its cells name",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\nratio = [\"server=pg12\", "
     "\"server=pg11\"]\nshape = \"flat\"\nover = \"server\"\n",
     "t.toml:19:1: the ratio's cell \"server=pg12\" names \"server\", the variable the shape is "
     "read along",
     "leave \"server\" out of the selectors"},
    {"own with the paper's words",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\nratio = [\"server=pg12\", "
     "\"server=pg11\"]\nat_most = 1\npaper_text = \"quoted\"\nown = true\n",
     "t.toml:22:1: claim 1 is pglab's own (own = true) and quotes the paper (paper_text)",
     "remove paper_text"},
    {"exact spread",
     "text = \"x\"\nstep = \"build\"\nmetric = \"client_ms\"\nspread = [\"server=pg12\", "
     "\"server=pg11\"]\nat_least = 1\nexact = true\n",
     "t.toml:21:1: \"exact\" in claim 1 is for a ratio or a value, not a spread",
     "how the runs vary"},
};

TEST(SpecClaimsTest, RepeatUntilDecided) {
    const char* const claim = "[[claims]]\ntext = \"x\"\nstep = \"build\"\nmetric = "
                              "\"client_ms\"\ncell = \"server=pg11\"\nat_most = 100\n";
    const auto with_repeat = [](const std::string& repeat) {
        std::string head = k_head;
        return head.replace(head.find("repeat = 3"), 10, repeat) + "\n";
    };
    const ExperimentSpec s =
        parse_ok(with_repeat("repeat = { min = 3, max = 15, until = \"decided\", budget = "
                             "\"30min\" }")
                 + claim);
    EXPECT_EQ(s.repeat, 3u);
    ASSERT_TRUE(s.until_decided.has_value());
    EXPECT_EQ(s.until_decided->max, 15u);
    EXPECT_EQ(s.until_decided->budget_ms, 30 * 60 * 1000);
    // min defaults to 3; a count replaces a table, and a quick form's count the file's table.
    EXPECT_EQ(parse_ok(with_repeat("repeat = { max = 5, until = \"decided\" }") + claim).repeat,
              3u);
    ParseOptions quick_form;
    quick_form.quick = true;
    const auto quick = parse_text(with_repeat("repeat = { max = 5, until = \"decided\" }") + claim
                                      + "[quick]\nrepeat = 1\n",
                                  quick_form);
    ASSERT_TRUE(quick.spec.has_value());
    EXPECT_EQ(quick.spec->repeat, 1u);
    EXPECT_FALSE(quick.spec->until_decided.has_value());

    EXPECT_NE(problems(with_repeat("repeat = { min = 3, until = \"decided\" }") + claim)
                  .find("\"repeat\" as a table needs \"max\""),
              std::string::npos);
    EXPECT_NE(problems(with_repeat("repeat = { min = 5, max = 3, until = \"decided\" }") + claim)
                  .find("\"max\" (3) in \"repeat\" is less than \"min\" (5)"),
              std::string::npos);
    EXPECT_NE(problems(with_repeat("repeat = { max = 5, until = \"done\" }") + claim)
                  .find("invalid value \"done\" for \"until\""),
              std::string::npos);
    EXPECT_NE(problems(with_repeat("repeat = { max = 5, until = \"decided\", mx = 1 }") + claim)
                  .find("unknown key \"mx\""),
              std::string::npos);
    EXPECT_EQ(first_problem(with_repeat("repeat = { max = 5, until = \"decided\" }")),
              "t.toml:2:1: \"repeat\" until decided needs a claim with a figure to decide");
}

TEST(SpecClaimsTest, BadClaimsAreRefusedAtTheirPosition) {
    for (const auto& c : k_errors) {
        SCOPED_TRACE(c.what);
        const std::string all = problems(k_head + "\n[[claims]]\n" + c.claim);
        const std::string first = all.substr(0, all.find('\n'));
        EXPECT_THAT(first, HasSubstr(c.headline));
        EXPECT_THAT(first, HasSubstr(c.hint));
    }
}

const std::string k_quick = "\n[quick]\nrepeat = 1\nmatrix.params.rows = 1000000\n";

TEST(SpecClaimsTest, QuickFormReplacesRepeatAndMatrixValuesOnlyWhenAsked) {
    const ExperimentSpec full = parse_ok(k_head + k_quick);
    EXPECT_EQ(full.repeat, 3U);
    EXPECT_TRUE(full.quick.declared);
    EXPECT_FALSE(full.is_quick);
    EXPECT_EQ(full.matrix.find("params.rows")->values.at(0).text(), "10000000");

    ParseOptions options;
    options.quick = true;
    const ParseOutcome quick = parse_text(k_head + k_quick, options);
    ASSERT_TRUE(quick.spec.has_value());
    EXPECT_EQ(quick.spec->repeat, 1U);
    EXPECT_TRUE(quick.spec->is_quick);
    EXPECT_EQ(quick.spec->name, "t-quick");
    const auto& rows = quick.spec->matrix.find("params.rows")->values;
    ASSERT_EQ(rows.size(), 1U);
    EXPECT_EQ(rows[0].text(), "1000000");
    // the other variables keep their values
    EXPECT_EQ(quick.spec->matrix.find("server")->values.size(), 2U);
}

TEST(SpecClaimsTest, QuickFormProblems) {
    ParseOptions options;
    options.quick = true;
    const ParseOutcome none = parse_text(k_head, options);
    ASSERT_FALSE(none.spec.has_value());
    EXPECT_EQ(none.diagnostics.items().at(0).headline(),
              "t.toml:1:1: the experiment has no quick form");

    const std::string all = problems(k_head + "\n[quick]\nrepeat = 1\nmatrix.clients = [1]\n");
    EXPECT_THAT(all, HasSubstr("t.toml:17:8: \"clients\" in [quick.matrix] is not a variable of "
                               "[matrix]"));
    EXPECT_THAT(problems(k_head + "\n[quick]\nrepeats = 1\n"),
                HasSubstr("t.toml:16:1: unknown key \"repeats\" in [quick] (did you mean "
                          "\"repeat\"?)"));
}

const std::string k_quick_servers = "\n[quick]\nrepeat = 1\n[quick.servers.pg11]\n"
                                    "memory_limit = \"384MB\"\nsync_delay = \"2ms\"\n";

TEST(SpecClaimsTest, QuickFormScalesAServersMemoryAndSyncsOnlyWhenAsked) {
    const ExperimentSpec full = parse_ok(k_head + k_quick_servers);
    ASSERT_EQ(full.quick.servers.size(), 1U);
    EXPECT_FALSE(full.servers.at(0).memory_limit_bytes.has_value());
    EXPECT_FALSE(full.servers.at(0).sync_delay_us.has_value());

    ParseOptions options;
    options.quick = true;
    const ParseOutcome quick = parse_text(k_head + k_quick_servers, options);
    ASSERT_TRUE(quick.spec.has_value());
    const ServerSpec& pg11 = quick.spec->servers.at(0);
    ASSERT_EQ(pg11.name, "pg11");
    EXPECT_EQ(pg11.memory_limit_bytes, 384ULL << 20);
    EXPECT_EQ(pg11.sync_delay_us, 2000);
    // where "impossible here" (no root, no cgroup) points: the quick form's value
    EXPECT_EQ(pg11.memory_limit_pos.line, 18);
    const ServerSpec& pg12 = quick.spec->servers.at(1);
    EXPECT_FALSE(pg12.memory_limit_bytes.has_value());
    EXPECT_FALSE(pg12.sync_delay_us.has_value());
}

TEST(SpecClaimsTest, EmulationInWords) {
    EXPECT_EQ(describe_emulation(std::nullopt, std::nullopt), "");
    EXPECT_EQ(describe_emulation(768ULL << 20, std::nullopt), "memory limit 768 MiB");
    EXPECT_EQ(describe_emulation(1536ULL << 20, 2000), "memory limit 1.5 GiB, each sync +2 ms");
    EXPECT_EQ(describe_emulation(std::nullopt, 500), "each sync +500 us");
    EXPECT_EQ(describe_emulation(std::nullopt, 0), "syncs counted, not slowed");
}

TEST(SpecClaimsTest, QuickFormServerProblems) {
    const std::string quick = "\n[quick]\nrepeat = 1\n";
    EXPECT_THAT(problems(k_head + quick + "[quick.servers.pg13]\nmemory_limit = \"384MB\"\n"),
                HasSubstr("[quick.servers.pg13] names no server of [servers]"));
    EXPECT_THAT(problems(k_head + quick + "[quick.servers.pg11]\nversion = \"12\"\n"),
                HasSubstr("t.toml:18:1: key \"version\" does not apply to [quick.servers.pg11]"));
    EXPECT_THAT(problems(k_head + quick + "[quick.servers.pg11]\nmemory_limit = \"1MB\"\n"),
                HasSubstr("t.toml:18:16: invalid \"memory_limit\" in [quick.servers.pg11]: a size "
                          "of at least 16MB is expected"));
    EXPECT_THAT(problems(k_head + quick + "[quick.servers.pg11]\nmemry_limit = \"1GB\"\n"),
                HasSubstr("unknown key \"memry_limit\" in [quick.servers.pg11] (did you mean "
                          "\"memory_limit\"?)"));
    const std::string existing = "repeat = 3\n[servers.db]\nconninfo = \"host=db1\"\n"
                                 "[[steps]]\ntype = \"bench\"\n";
    EXPECT_THAT(problems(existing + quick + "[quick.servers.db]\nsync_delay = \"1ms\"\n"),
                HasSubstr("[quick.servers.db] cannot change a server given by \"conninfo\""));
}

// A claim's metric is checked against the metrics its step's kind gives, when the file is read:
// a misspelt one is refused at its file:line:column, with the nearest, before any server starts.
TEST(SpecClaimsTest, AMetricTheStepDoesNotGiveIsRefusedWithTheNearest) {
    const std::string claim = "\n[[claims]]\ntext = \"faster\"\nstep = \"build\"\n"
                              "cell = \"server=pg12\"\nat_most = 10\n";
    EXPECT_THAT(problems(k_head + claim + "metric = \"clinet_ms\"\n"),
                HasSubstr("t.toml:20:11: step \"build\" (timed-sql) gives no metric "
                          "\"clinet_ms\" (did you mean \"client_ms\"?)"));
    EXPECT_THAT(problems(k_head + claim + "metric = \"tps\"\n"),
                HasSubstr("gives no metric \"tps\""));
    EXPECT_THAT(problems(k_head + claim + "metric = \"tps\"\n"),
                HasSubstr("[its metrics: \"client_ms\", \"server_ms\", \"rows\","));
    EXPECT_THAT(problems(k_head + claim + "metric = \"probe:wall.bytes\"\n"),
                HasSubstr("t.toml:20:11: \"probe:wall.bytes\" names no probe pglab takes (no "
                          "probe family \"wall\" (did you mean \"wal\"?))"));
    EXPECT_THAT(problems(k_head + claim + "metric = \"probe:bytes\"\n"),
                HasSubstr("\"probe:bytes\" names no probe pglab takes ["));
    for (const char* ok : {"client_ms", "server_ms", "probe:wal.bytes", "server_cpu_s",
                           "replication.replay_lag_ms", "probe:wait.LWLock.WALWrite",
                           "probe:vacuum.pages_scanned", "probe:analyze.rows_sampled"}) {
        SCOPED_TRACE(ok);
        parse_ok(k_head + claim + "metric = \"" + ok + "\"\n");
    }
}

TEST(SpecClaimsTest, CoverageRowsAndWhatAnExplanationRestsOn) {
    const std::string claim =
        "\n[[claims]]\ntext = \"less WAL\"\nstep = \"build\"\n"
        "metric = \"probe:wal.bytes\"\ncell = \"server=pg12\"\nat_most = 10\n";
    const ExperimentSpec spec =
        parse_ok(k_head + "items = [\"4.3\"]\n" + claim
                 + "items = [\"4.12\", \"4.13\"]\nexplanation = \"fewer FPI\"\n"
                   "evidence = \"probe:wal.fpi\"\n"
                 + claim + "explanation = \"the disk\"\nhypothesis = true\n");
    EXPECT_EQ(spec.steps[0].items, std::vector<std::string>{"4.3"});
    ASSERT_EQ(spec.claims.size(), 2U);
    EXPECT_EQ(spec.claims[0].items, (std::vector<std::string>{"4.12", "4.13"}));
    EXPECT_EQ(spec.claims[0].evidence, "probe:wal.fpi");
    EXPECT_FALSE(spec.claims[0].hypothesis);
    EXPECT_TRUE(spec.claims[1].hypothesis);
    EXPECT_TRUE(spec.claims[1].evidence.empty());

    EXPECT_THAT(problems(k_head + claim + "items = [\"2\"]\n"),
                HasSubstr("t.toml:21:11: \"2\" in \"items\" of claim 1 is not a row of "
                          "docs/studies/coverage.md"));
    EXPECT_THAT(problems(k_head + claim + "items = [\"2.1\", \"2.1\"]\n"),
                HasSubstr("row \"2.1\" is named twice"));
    EXPECT_THAT(problems(k_head + claim + "explanation = \"x\"\nevidence = \"probe:wall.fpi\"\n"),
                HasSubstr("t.toml:22:13: \"probe:wall.fpi\" names no probe pglab takes"));
    EXPECT_THAT(problems(k_head + claim + "hypothesis = true\n"),
                HasSubstr("\"hypothesis\" in claim 1 qualifies an explanation, and it has none"));
    EXPECT_THAT(
        problems(k_head + claim
                 + "explanation = \"x\"\nevidence = \"probe:wal.fpi\"\nhypothesis = true\n"),
        HasSubstr("\"hypothesis\" and \"evidence\" cannot be combined"));
}

} // namespace
} // namespace pglab::lab::experiment
