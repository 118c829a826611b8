// The report's answer: claims of the stored fixture (tests/golden/report/results-fixture, whose
// experiment.toml states four) evaluated and rendered as the first table, one claim of each
// verdict; and value claims, a 0 among them, built here.
#include "lab/report/claim_words.hpp"
#include "lab/report/claims.hpp"
#include "lab/report/number_format.hpp"
#include "lab/report/report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <utility>

#include "finished_runs.hpp"
#include "judge_claim.hpp"

namespace pglab::lab::report {
namespace {

ResultsDir fixture() {
    auto r = load_results(std::filesystem::path(PGLAB_SOURCE_DIR)
                          / "tests/golden/report/results-fixture");
    EXPECT_TRUE(r.has_value());
    return r.has_value() ? std::move(*r) : ResultsDir{};
}

/// A claim of one cell's figure: `paper` within ±`tolerance`.
experiment::Claim value_claim(std::string text, std::string step, std::string metric,
                              std::string cell, double paper, double tolerance) {
    experiment::Claim c;
    c.text = std::move(text);
    c.step = std::move(step);
    c.metric = std::move(metric);
    c.cell = *experiment::parse_cell_selector(cell);
    c.paper = paper;
    c.tolerance = tolerance;
    return c;
}

/// The fixture's index-only scan of one cell fetched no heap page in any run.
experiment::Claim no_heap_fetches() {
    return value_claim("no heap fetches", "ios", "heap_fetches", "server=pg17 clients=5", 0.0, 0.0);
}

TEST(ReportClaimsTest, FixtureClaimsTableHasEveryVerdict) {
    const ResultsDir r = fixture();
    ReportOptions o;
    o.output_dir = std::filesystem::temp_directory_path();
    const Report report = build_report(r, o);
    EXPECT_EQ(report.question, "Is PostgreSQL 17 faster than 16 at TPC-B-like load and at VACUUM?");
    ASSERT_EQ(report.claims.size(), 6U);
    const Table t = claims_table(report.claims);
    // Claims with a source give the paper's figure; those without, the user's own ("claimed").
    ASSERT_EQ(t.header, (std::vector<std::string>{"claim", "paper", "claimed", "measured (95% CI)",
                                                  "verdict"}));
    ASSERT_EQ(t.rows.size(), 6U);
    // The fixture ran interleaved: a ratio of cells with one run in each of 3 rounds is judged on
    // the rounds' paired differences.
    EXPECT_EQ(t.rows[0], (std::vector<std::string>{
                             "17 vacuums 5.7x faster than 16 (seed 002)", "ratio 0.175 (±20%)", "-",
                             "0.830 (95% CI 0.785 – 0.878) = 1335.5 / 1608.6 ms, geometric means "
                             "of 3 rounds, judged in pairs",
                             "differs: its 95% interval (0.785 – 0.878) lies wholly outside 0.175 "
                             "± 20%. The paper's disk flushes far more slowly than this "
                             "machine's"}));
    EXPECT_EQ(t.rows[1],
              (std::vector<std::string>{
                  "tps is equal within 3% on both versions (seed 002)", "ratio 1.000 (±3%)", "-",
                  "1.003 (95% CI 0.978 – 1.028) = 1190.5 / 1187.1 tps, geometric "
                  "means of 3 rounds, judged in pairs",
                  "agrees: its 90% interval (0.986 – 1.020) lies within 1.000 ± 3%"}));
    // A cell of two runs: no interval, the runs shown instead, and no verdict yet.
    EXPECT_EQ(t.rows[2],
              (std::vector<std::string>{
                  "17 with 20 clients serves about as much as 16", "-", "ratio 1.000 (±5%)",
                  "0.855 = 1038.9 / 1215.0 tps, geometric means (runs: 1226.1, 959.2, "
                  "953.4 / 1205.2, 1224.8; no interval under 3 runs)",
                  "inconclusive: 0.855 from 2 runs, too few for an interval (3 at the "
                  "least); about 7 more runs of each cell would likely decide it"}));
    EXPECT_EQ(t.rows[3], (std::vector<std::string>{
                             "16 reaches 2000 tps with 10 clients", "-", "2000.0 (±10%)",
                             "1187.1 tps (geometric mean; 95% CI 1152.9 – 1222.2)",
                             "differs: its 95% interval (1152.9 – 1222.2) lies wholly outside "
                             "2000.0 ± 10%"}));
    // A shape: each level over the first, each ratio judged; 20 clients has 3 runs with a wide
    // spread (1226.1, 959.2, 953.4), so 0.845 is not shown to be outside 1 ± 5% yet.
    EXPECT_EQ(t.rows[4], (std::vector<std::string>{
                             "tps stays flat from 5 to 20 clients", "-", "flat along clients (±5%)",
                             "5: 1230.1 → 10: 1190.5 → 20: 1038.9 tps; each over the first: "
                             "0.968 (0.925 – 1.012), 0.845 (0.597 – 1.196)",
                             "inconclusive: clients 10 over 5 is 0.968: its 90% interval (0.938 "
                             "– 0.999) is not within 1.000 ± 5%, and its 95% interval (0.925 – "
                             "1.012) reaches it (and 1 more undecided); about 6 more runs of each "
                             "level would likely decide it"}));
    EXPECT_EQ(t.rows[5], (std::vector<std::string>{
                             "a 128kB record size halves tps (seed 004)", "-", "-", "-",
                             "cannot be tested here: needs a ZFS file system with a record size "
                             "per data directory"}));
    EXPECT_EQ(report.claims[0].judgement.verdict, Verdict::differs);
    EXPECT_EQ(report.claims[1].judgement.verdict, Verdict::agrees);
    EXPECT_EQ(report.claims[2].judgement.verdict, Verdict::inconclusive);
    EXPECT_EQ(report.claims[3].judgement.verdict, Verdict::differs);
    EXPECT_EQ(report.claims[5].judgement.verdict, Verdict::untestable);

    // The answer comes first: the question, then the table, before any step.
    const std::string md = render_markdown(report.document);
    const auto answer = md.find("## Answer");
    ASSERT_NE(answer, std::string::npos);
    EXPECT_LT(md.find("Question:"), answer);
    EXPECT_LT(answer, md.find("## Step"));
    EXPECT_LT(md.find("## Step tpcb (bench)"), md.find("## Warnings"));
    EXPECT_LT(md.find("## Warnings"), md.find("## Appendix"));
    EXPECT_LT(md.find("## Appendix"), md.find("### Step 0:init (init, once per server)"));
    const std::string html = render_html(report.document);
    EXPECT_NE(html.find("cannot be tested here: needs a ZFS file system"), std::string::npos);
}

TEST(ReportClaimsTest, AnExplanationShowsItsEvidenceOrSaysItIsAHypothesis) {
    const ResultsDir r = fixture();
    const std::vector<experiment::Claim> claims = read_claims(r).claims;
    ASSERT_FALSE(claims.empty());
    experiment::Claim c = claims.front(); // differs, with an explanation
    c.evidence = "probe:wal.records";
    ClaimResult judged = testing::judge_claim(c, r);
    ASSERT_EQ(judged.judgement.verdict, Verdict::differs);
    ASSERT_EQ(judged.judgement.cells.size(), 2U);
    const auto steps = collect_steps(r, 0);
    const auto vacuum = std::find_if(steps.begin(), steps.end(),
                                     [](const StepData& s) { return s.key == "vacuum"; });
    ASSERT_NE(vacuum, steps.end());
    const MetricValues* records = find_metric(*vacuum, "probe:wal.records");
    ASSERT_NE(records, nullptr);
    const auto mean_in = [&](std::int64_t cell) {
        return format_number(mean(records->values_in(cell)));
    };
    EXPECT_EQ(judged.evidence, "wal.records " + mean_in(judged.judgement.cells[0]) + " / "
                                   + mean_in(judged.judgement.cells[1])
                                   + " (means of the claim's cells)");
    EXPECT_THAT(verdict_text(judged),
                ::testing::EndsWith("The paper's disk flushes far more slowly than this machine's "
                                    "(measured: "
                                    + judged.evidence + ")"));

    c.evidence.clear();
    c.hypothesis = true;
    judged = testing::judge_claim(c, r);
    EXPECT_THAT(verdict_text(judged),
                ::testing::EndsWith("than this machine's (a hypothesis: not measured)"));

    c.hypothesis = false; // neither: the explanation alone, as before
    judged = testing::judge_claim(c, r);
    EXPECT_THAT(verdict_text(judged), ::testing::EndsWith("than this machine's"));
    c.evidence = "probe:no.such"; // a metric the step did not record: nothing to show
    EXPECT_EQ(testing::judge_claim(c, r).evidence, "");
}

TEST(ReportClaimsTest, ValueClaimsZeroBoundsAndMissingCells) {
    const ResultsDir r = fixture();
    const auto steps = collect_steps(r, 2);
    const experiment::Claim zero = no_heap_fetches();
    experiment::Claim bound = zero;
    bound.text = "at most 600 blocks";
    bound.metric = "blocks";
    bound.paper.reset();
    bound.at_most = 600;
    experiment::Claim missing = zero;
    missing.cell = *experiment::parse_cell_selector("server=pg17"); // three cells, not one
    experiment::Claim no_metric = zero;
    no_metric.metric = "probe:nothing";
    experiment::Claim rising;
    rising.text = "tps grows with clients";
    rising.step = "tpcb";
    rising.metric = "tps";
    rising.kind = experiment::ClaimKind::shape;
    rising.shape = experiment::Shape::increasing;
    rising.over = "clients";
    rising.cell = *experiment::parse_cell_selector("server=pg16");
    rising.tolerance = 0.02;
    // A positive count the same in every run equals its figure exactly (not exp(log(x)) ± ulp).
    experiment::Claim counted = bound;
    counted.at_most.reset();
    counted.paper = 823.0;
    counted.tolerance = 0.0;
    // A stated least step: the same curve does not pass for growth.
    experiment::Claim growing = rising;
    growing.min_step = 0.01;
    experiment::Claim falling = rising; // pg17: 1230.3 → 1190.5 → 1046.3, -3.2% then -12.1%
    falling.cell = *experiment::parse_cell_selector("server=pg17");
    falling.shape = experiment::Shape::decreasing;
    falling.min_step = 0.05;
    experiment::Claim falling_enough = falling;
    falling_enough.min_step = 0.03;
    const auto out = evaluate_claims(
        {zero, bound, missing, no_metric, rising, counted, growing, falling, falling_enough}, r,
        steps);
    ASSERT_EQ(out.size(), 9U);
    // pg17 falls 3.2% then 12.7%, but the spread of its 20-client runs leaves both steps open.
    EXPECT_EQ(out[7].judgement.verdict, Verdict::inconclusive) << out[7].why;
    EXPECT_EQ(out[8].judgement.verdict, Verdict::inconclusive) << out[8].why;
    EXPECT_EQ(out[8].measured, "5: 1230.1 → 10: 1190.5 → 20: 1038.9 tps; each over the one "
                               "before: 0.968 (0.925 – 1.012), 0.873 (0.611 – 1.246)");
    EXPECT_NE(verdict_text(out[7]).find("about 7 more runs of each level would likely decide it"),
              std::string::npos)
        << verdict_text(out[7]);
    // pg16's 5-client cell ran once: no shape is judged from means of one run.
    for (const std::size_t i : {4U, 6U}) {
        EXPECT_EQ(verdict_text(out[i]),
                  "inconclusive: clients 10 over 5 is 0.989: 0.989 from one run, which has no "
                  "interval (and 1 more undecided); a shape needs 3 runs at every level, the "
                  "fewest here is 1");
    }
    // A count the same in each of 3 runs: its interval is that one point, its value the count
    // itself (not exp(log(823)) a unit in the last place off).
    EXPECT_EQ(verdict_text(out[5]),
              "agrees: its 90% interval (823.0 – 823.0) lies within 823.0 ± 0%");
    EXPECT_EQ(out[4].measured,
              "5: 1200.0 → 10: 1187.1 → 20: 1215.0 tps; each over the one before: 0.989, 1.024");
    // A count the same in every run is not "exact" unless the claim says so; from 3 runs on its
    // interval is the point the runs share, and that decides.
    EXPECT_EQ(out[0].judgement.verdict, Verdict::agrees);
    EXPECT_EQ(verdict_text(out[0]), "agrees: its 90% interval (0 – 0) lies within 0 ± 0");
    EXPECT_EQ(out[0].measured, "0 (95% CI 0 – 0)"); // a 0 is shown, not dropped
    EXPECT_EQ(out[0].paper, "0 (± 0)");
    EXPECT_EQ(out[1].judgement.verdict, Verdict::differs);
    EXPECT_EQ(verdict_text(out[1]),
              "differs: its 95% interval (823.0 – 823.0) lies wholly above 600.0");
    EXPECT_EQ(out[2].judgement.verdict, Verdict::untestable);
    EXPECT_EQ(verdict_text(out[2]),
              "cannot be tested here: \"server=pg17\" names 3 cells, not one");
    EXPECT_EQ(verdict_text(out[3]),
              "cannot be tested here: step \"ios\" recorded no \"probe:nothing\"");
}

// The paper column quotes the paper and says what is tested of it; pglab's own hypotheses stand
// in a column of their own, never under "paper".
TEST(ReportClaimsTest, PglabsOwnHypothesesHaveAColumnOfTheirOwn) {
    const ResultsDir r = fixture();
    const auto steps = collect_steps(r, 2);
    experiment::Claim quoted = no_heap_fetches();
    quoted.paper_text = "\"Heap Fetches: 0\" (p. 6)";
    quoted.source = "seed 001";
    experiment::Claim own = no_heap_fetches();
    own.own = true;
    const Table plain = claims_table(evaluate_claims({quoted}, r, steps));
    ASSERT_EQ(plain.header.size(), 4U);
    EXPECT_EQ(plain.rows[0][1], "\"Heap Fetches: 0\" (p. 6); tested as 0 (± 0)");
    const Table both = claims_table(evaluate_claims({quoted, own}, r, steps));
    ASSERT_EQ(both.header, (std::vector<std::string>{"claim", "paper", "pglab's own",
                                                     "measured (95% CI)", "verdict"}));
    EXPECT_EQ(both.rows[0][1], "\"Heap Fetches: 0\" (p. 6); tested as 0 (± 0)");
    EXPECT_EQ(both.rows[0][2], "-");
    EXPECT_EQ(both.rows[1][1], "-");
    EXPECT_EQ(both.rows[1][2], "0 (± 0)");
    EXPECT_EQ(both.rows[1][4], both.rows[0][4]);
    // Without a source it is the user's claim: a column of its own, never the paper's.
    const Table users = claims_table(evaluate_claims({no_heap_fetches(), quoted}, r, steps));
    ASSERT_EQ(users.header, (std::vector<std::string>{"claim", "paper", "claimed",
                                                      "measured (95% CI)", "verdict"}));
    EXPECT_EQ(users.rows[0][1], "-");
    EXPECT_EQ(users.rows[0][2], "0 (± 0)");
    EXPECT_EQ(users.rows[1][2], "-");
}

// A `repeat` until decided judges the claims after its first rounds and after each round it adds;
// a claim decided early but whose cells ran on for another claim says when it was decided.
TEST(ReportClaimsTest, AClaimSaysAtWhichLookItWasDecided) {
    ResultsDir r = fixture();
    ASSERT_TRUE(r.plan.has_value());
    r.plan->repeat = 2; // then one round added: each run's round is its repetition
    r.plan->repeat_max = 5;
    for (FinishedRun& f : r.runs) {
        f.record.round = static_cast<std::uint32_t>(f.record.repetition);
    }
    const auto steps = collect_steps(r, 2);
    // Declared exact: its value decides from the first runs on.
    experiment::Claim zero = no_heap_fetches();
    zero.exact = true;
    // Needs 3 runs for an interval: decided only by the last round.
    const experiment::Claim far = value_claim("16 reaches 2000 tps with 10 clients", "tpcb", "tps",
                                              "server=pg16 clients=10", 2000.0, 0.1);
    const auto out = evaluate_claims({zero, far}, r, steps);
    ASSERT_EQ(out.size(), 2U);
    EXPECT_EQ(verdict_text(out[0]), "agrees: 0 (declared exact) is within 0 ± 0; "
                                    "decided with 2 runs of the cell (judged again with all 3, "
                                    "the same)");
    // Its one look of three (3, 4 and 5 runs) spends part of the 2.5% "differs" may: its
    // interval is wider than the 95% one a single look would read.
    EXPECT_EQ(verdict_text(out[1]), "differs: its 99.27% interval (1096.9 – 1284.6) lies wholly "
                                    "outside 2000.0 ± 10%; decided at look 1 of at most 3, with 3 "
                                    "runs of the cell");
    // The judgements as values, before any word: a declared count decides by its value, a mean
    // of runs by its interval.
    EXPECT_EQ(out[0].judgement.verdict, Verdict::agrees);
    EXPECT_EQ(out[0].judgement.basis, judge::Basis::exact);
    EXPECT_EQ(out[0].judgement.value, 0.0);
    EXPECT_EQ(out[1].judgement.verdict, Verdict::differs);
    EXPECT_EQ(out[1].judgement.basis, judge::Basis::independent);
    ASSERT_TRUE(out[1].judgement.ci95.has_value());
    EXPECT_LT(out[1].judgement.ci95->high, 1800.0);
    EXPECT_EQ(out[1].judgement.runs, 3U);
    EXPECT_EQ(out[1].judgement.look, 1U);
    EXPECT_EQ(out[1].judgement.looks, 3U);
}

// More runs can change a verdict: a count declared exact is 0 in the first two runs of its cell
// and agrees, but a third run with another count makes it differ. The claim says both.
TEST(ReportClaimsTest, AClaimWhoseVerdictMoreRunsChangedSaysBoth) {
    ResultsDir r = fixture();
    ASSERT_TRUE(r.plan.has_value());
    r.plan->repeat = 2;
    r.plan->repeat_max = 5;
    const Cell* cell = find_cell(r, 3); // server=pg17 clients=5
    ASSERT_TRUE(cell != nullptr && cell->label.starts_with("server=pg17 clients=5"));
    int changed = 0;
    for (FinishedRun& f : r.runs) {
        f.record.round = static_cast<std::uint32_t>(f.record.repetition);
        if (f.record.cell != 3 || f.record.repetition != 3) {
            continue;
        }
        for (auto& step : f.record.steps) {
            if (auto* explain = step.as<store::ExplainStep>(); explain && step.key == "ios") {
                explain->explain->heap_fetches = 40;
                ++changed;
            }
        }
    }
    ASSERT_EQ(changed, 1);
    experiment::Claim declared = no_heap_fetches();
    declared.exact = true;
    const auto out = evaluate_claims({declared}, r, collect_steps(r, 2));
    ASSERT_EQ(out.size(), 1U);
    EXPECT_EQ(out[0].judgement.verdict, Verdict::differs);
    EXPECT_NE(verdict_text(out[0]).find("; with 2 runs of the cell it agreed, with all 3 it "
                                        "differs"),
              std::string::npos)
        << verdict_text(out[0]);
}

// An equivalence test: "agrees" needs the 90% interval inside what the paper allows, "differs"
// the whole 95% interval outside. A ratio of 1.036 whose 95% interval is 0.995 - 1.079 cannot be
// told from 1.07 ± 1%, nor from "at least 1.02", but is clearly not 1.20 ± 1%; the verdict says
// how many more runs would likely decide it. One run has no interval: only an exact figure decides.
TEST(ReportClaimsTest, AFigureOutsideWhoseIntervalReachesThePaperIsInconclusive) {
    ResultsDir r = fixture();
    ASSERT_TRUE(r.plan.has_value());
    r.plan->order = "random"; // the runs unpaired: Welch's interval of the two cells

    const auto steps = collect_steps(r, 2);
    experiment::Claim near;
    near.text = "17 with 5 clients serves 7% more than 16 with 10";
    near.step = "tpcb";
    near.metric = "tps";
    near.kind = experiment::ClaimKind::ratio;
    near.cell = *experiment::parse_cell_selector("server=pg17 clients=5");
    near.baseline = *experiment::parse_cell_selector("server=pg16 clients=10");
    near.paper = 1.07;
    near.tolerance = 0.01;
    experiment::Claim far = near;
    far.paper = 1.20;
    experiment::Claim bound = near;
    bound.paper.reset();
    bound.at_least = 1.02;
    experiment::Claim above = bound;
    above.at_least = 0.99;
    const auto out = evaluate_claims({near, far, bound, above}, r, steps);
    ASSERT_EQ(out.size(), 4U);
    EXPECT_EQ(out[0].judgement.verdict, Verdict::inconclusive);
    EXPECT_EQ(verdict_text(out[0]),
              "inconclusive: its 90% interval (1.005 – 1.068) is not within 1.070 ± 1%, and its "
              "95% interval (0.995 – 1.079) reaches it; about 3 more runs of each cell would "
              "likely decide it");
    EXPECT_EQ(verdict_name(out[0].judgement.verdict), std::string("inconclusive"));
    EXPECT_EQ(out[1].judgement.verdict, Verdict::differs);
    EXPECT_EQ(verdict_text(out[1]),
              "differs: its 95% interval (0.995 – 1.079) lies wholly outside 1.200 ± 1%");
    EXPECT_EQ(out[2].judgement.verdict, Verdict::inconclusive);
    EXPECT_EQ(out[2].why, "its one-sided 95% bound 1.005 is not ≥ 1.020, and its 95% interval "
                          "(0.995 – 1.079) reaches 1.020; about 4 more runs of each cell would "
                          "likely decide it");
    EXPECT_EQ(out[3].judgement.verdict, Verdict::agrees);
    EXPECT_EQ(verdict_text(out[3]), "agrees: its one-sided 95% bound 1.005 is ≥ 0.99");

    // A value claim against one run of it: no interval, so it cannot be decided, unless the
    // claim declares the figure exact.
    experiment::Claim one_run = near;
    one_run.kind = experiment::ClaimKind::value;
    one_run.baseline = {};
    one_run.paper = 1300.0;
    one_run.tolerance = 0.05;
    experiment::Claim declared = one_run;
    declared.exact = true;
    ResultsDir single = r; // the first measured run of each cell only
    std::set<std::size_t> seen;
    std::erase_if(single.runs, [&](const FinishedRun& f) {
        return !f.record.warmup && !seen.insert(f.record.cell).second;
    });
    const auto alone = evaluate_claims({one_run, declared}, single, collect_steps(single, 2));
    ASSERT_EQ(alone.size(), 2U);
    EXPECT_EQ(alone[0].judgement.verdict, Verdict::inconclusive) << alone[0].measured;
    EXPECT_NE(alone[0].measured.find("(one run: no interval)"), std::string::npos);
    EXPECT_NE(alone[0].why.find("from one run, which has no interval; more runs of the cell would "
                                "give one"),
              std::string::npos)
        << alone[0].why;
    EXPECT_EQ(alone[1].judgement.verdict, Verdict::differs) << alone[1].why;
    EXPECT_NE(alone[1].why.find("(declared exact) is outside 1300.0 ± 5%"), std::string::npos)
        << alone[1].why;
}

// A step that runs once per server (S4's load) is not credited to the cell of the run it ran in:
// it goes to the appendix, one row per run and server; the measured step comes first.
TEST(ReportClaimsTest, OnceStepsAreNotCreditedToACell) {
    using nlohmann::json;
    ResultsDir r;
    r.name = "gin";
    r.variables = {"server"};
    r.plan.emplace();
    r.plan->steps = {{0, "load", "", "sql", false, true, ""},
                     {1, "build", "", "timed-sql", false, false, ""}};
    for (int64_t i = 0; i < 2; ++i) {
        Cell c;
        c.index = static_cast<std::size_t>(i);
        c.server = i == 0 ? "pg11" : "pg12";
        c.bindings = {{"server", {c.server, {}}}};
        c.label = "server=" + c.server;
        r.cells.push_back(c);
    }
    for (int64_t run = 0; run < 4; ++run) {
        json steps = json::array();
        if (run < 2) {
            steps.push_back({{"index", 0},
                             {"key", "load"},
                             {"type", "sql"},
                             {"status", "ok"},
                             {"elapsed_ms", 1000.0 + static_cast<double>(run)}});
        } else {
            steps.push_back({{"index", 0},
                             {"key", "load"},
                             {"type", "sql"},
                             {"status", "skipped"},
                             {"skip_reason", "once"}});
        }
        steps.push_back({{"index", 1},
                         {"key", "build"},
                         {"type", "timed-sql"},
                         {"status", "ok"},
                         {"client_ms", 50.0},
                         {"server_ms", 49.0}});
        r.runs.push_back(testing::finished_run(run, run % 2, steps));
    }
    ReportOptions o;
    o.output_dir = std::filesystem::temp_directory_path();
    const std::string md = render_markdown(build_report(r, o).document);
    const auto build = md.find("## Step build (timed-sql)");
    const auto load = md.find("### Step load (sql, once per server)");
    ASSERT_NE(build, std::string::npos) << md;
    ASSERT_NE(load, std::string::npos) << md;
    EXPECT_LT(build, md.find("## Appendix"));
    EXPECT_LT(md.find("## Appendix"), load);
    EXPECT_NE(md.find("| ran once, in | value |\n|---|---:|\n| run 0 on server pg11 | 1000.0 |\n"
                      "| run 1 on server pg12 | 1001.0 |\n"),
              std::string::npos)
        << md;
}

} // namespace
} // namespace pglab::lab::report
