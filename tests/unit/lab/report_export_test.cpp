// The report's exports of the answer: `pglab report --format json` holds the question, the claims
// with their verdicts and the functional checks beside the cells (whose keys stay as they were);
// `--format claims-csv` and `checks-csv` hold the same rows as CSV. Fixtures:
// tests/golden/report/results-fixture (four claims: a ratio that differs, one that agrees, a
// shape that differs, one that cannot be tested) and checks-fixture (eight checks, two failing).
#include "lab/report/checks_section.hpp"
#include "lab/report/claim_words.hpp"
#include "lab/report/claims.hpp"
#include "lab/report/report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

#include "report_golden.hpp"

namespace pglab::lab::report {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Built {
    ResultsDir results;
    Report report;
};

Built build(const std::string& fixture) {
    Built b;
    auto r = load_results(golden::k_dir / fixture);
    EXPECT_TRUE(r.has_value());
    if (r.has_value()) {
        b.results = std::move(*r);
    }
    ReportOptions o;
    o.output_dir = fs::temp_directory_path();
    b.report = build_report(b.results, o);
    return b;
}

std::vector<std::string> csv_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        out.push_back(line);
    }
    return out;
}

TEST(ReportExportTest, JsonKeepsItsKeysAndAddsTheQuestionAndClaims) {
    const Built b = build("results-fixture");
    const json doc = json::parse(export_json(b.results, b.report));
    // The keys parsers of pglab.report/1 read are unchanged.
    EXPECT_EQ(doc["version"], "pglab.report/1");
    for (const char* key : {"experiment", "warnings", "problems", "steps"}) {
        EXPECT_TRUE(doc.contains(key)) << key;
    }
    ASSERT_FALSE(doc["steps"].empty());
    EXPECT_TRUE(doc["steps"][0].contains("metrics"));
    EXPECT_EQ(doc["question"], "Is PostgreSQL 17 faster than 16 at TPC-B-like load and at VACUUM?");
    const json& claims = doc["claims"];
    ASSERT_EQ(claims.size(), 6U);
    // Each claim's words are the Answer table's, from the same evaluation.
    // (The table's paper and claimed columns: the claim's figure is in the one its source says.)
    const Table table = claims_table(b.report.claims);
    ASSERT_EQ(table.header.size(), 5U);
    for (std::size_t i = 0; i < claims.size(); ++i) {
        EXPECT_EQ(claims[i]["verdict_text"], table.rows[i][4]) << i;
        const std::string figure = table.rows[i][1] != "-" ? table.rows[i][1] : table.rows[i][2];
        EXPECT_EQ(claims[i]["paper"].is_null() ? "-" : claims[i]["paper"].get<std::string>(),
                  figure);
        EXPECT_EQ(claims[i]["measured"].is_null() ? "-" : claims[i]["measured"].get<std::string>(),
                  table.rows[i][3]);
    }

    const json& differs = claims[0];
    EXPECT_EQ(differs["text"], "17 vacuums 5.7x faster than 16");
    EXPECT_EQ(differs["source"], "seed 002");
    EXPECT_EQ(differs["kind"], "ratio");
    EXPECT_EQ(differs["step"], "vacuum");
    EXPECT_EQ(differs["metric"], "server_ms");
    EXPECT_EQ(differs["cell"], "server=pg17 clients=10");
    EXPECT_EQ(differs["baseline"], "server=pg16 clients=10");
    EXPECT_EQ(differs["paper"], "ratio 0.175 (±20%)");
    EXPECT_DOUBLE_EQ(differs["paper_value"].get<double>(), 0.175);
    EXPECT_DOUBLE_EQ(differs["tolerance"].get<double>(), 0.2);
    // The fixture ran interleaved: its ratios are judged on the rounds' pairs.
    EXPECT_EQ(differs["measured"], "0.830 (95% CI 0.785 – 0.878) = 1335.5 / 1608.6 ms, geometric "
                                   "means of 3 rounds, judged in pairs");
    EXPECT_NEAR(differs["value"].get<double>(), 0.8302, 1e-4);
    ASSERT_EQ(differs["ci95"].size(), 2U);
    EXPECT_NEAR(differs["ci95"][0].get<double>(), 0.7848, 1e-4);
    EXPECT_NEAR(differs["ci95"][1].get<double>(), 0.8783, 1e-4);
    ASSERT_EQ(differs["ci90"].size(), 2U);
    EXPECT_NEAR(differs["ci90"][0].get<double>(), 0.7991, 1e-4);
    EXPECT_NEAR(differs["ci90"][1].get<double>(), 0.8626, 1e-4);
    EXPECT_EQ(differs["verdict"], "differs");
    EXPECT_EQ(differs["exact"], false);
    EXPECT_EQ(differs["why"], "its 95% interval (0.785 – 0.878) lies wholly outside 0.175 ± 20%");
    EXPECT_EQ(differs["explanation"],
              "The paper's disk flushes far more slowly than this machine's");
    EXPECT_EQ(differs["series"], json::array());

    const json& agrees = claims[1];
    EXPECT_EQ(agrees["verdict"], "agrees");
    EXPECT_EQ(agrees["verdict_text"],
              "agrees: its 90% interval (0.986 – 1.020) lies within 1.000 ± 3%");
    EXPECT_EQ(agrees["why"], "its 90% interval (0.986 – 1.020) lies within 1.000 ± 3%");
    EXPECT_NEAR(agrees["value"].get<double>(), 1.0029, 1e-4);

    // Two runs of a cell: no interval, no verdict yet.
    const json& few = claims[2];
    EXPECT_EQ(few["verdict"], "inconclusive");
    EXPECT_TRUE(few["ci95"].is_null());
    EXPECT_TRUE(few["ci90"].is_null());
    EXPECT_NEAR(few["value"].get<double>(), 0.8551, 1e-4);

    const json& value = claims[3];
    EXPECT_EQ(value["kind"], "value");
    EXPECT_EQ(value["verdict"], "differs");
    EXPECT_EQ(value["why"], "its 95% interval (1152.9 – 1222.2) lies wholly outside 2000.0 ± 10%");
    EXPECT_TRUE(value["explanation"].is_null());

    const json& shape = claims[4];
    EXPECT_EQ(shape["kind"], "shape");
    EXPECT_EQ(shape["shape"], "flat");
    EXPECT_EQ(shape["over"], "clients");
    EXPECT_EQ(shape["verdict"], "inconclusive");
    EXPECT_EQ(shape["why"].get<std::string>().rfind("clients 10 over 5 is 0.968: ", 0), 0U);
    EXPECT_TRUE(shape["value"].is_null());
    EXPECT_TRUE(shape["ci95"].is_null());
    EXPECT_TRUE(shape["ci90"].is_null());
    ASSERT_EQ(shape["series"].size(), 3U);
    EXPECT_EQ(shape["series"][0]["at"], "5");
    EXPECT_NEAR(shape["series"][0]["mean"].get<double>(), 1230.14, 0.01); // geometric
    EXPECT_EQ(shape["series"][2]["at"], "20");
    EXPECT_NEAR(shape["series"][2]["mean"].get<double>(), 1038.92, 0.01);

    const json& untestable = claims[5];
    EXPECT_EQ(untestable["verdict"], "untestable");
    EXPECT_EQ(untestable["why"], "needs a ZFS file system with a record size per data directory");
    EXPECT_EQ(untestable["verdict_text"], "cannot be tested here: needs a ZFS file system with a "
                                          "record size per data directory");
    for (const char* key : {"measured", "value", "ci95", "ci90", "paper", "step", "metric"}) {
        EXPECT_TRUE(untestable[key].is_null()) << key;
    }
    // Results without checks have an empty list, not a missing key.
    EXPECT_EQ(doc["checks"], json::array());
}

TEST(ReportExportTest, ClaimsCsvHasOneRowPerClaim) {
    const Built b = build("results-fixture");
    const auto lines = csv_lines(export_claims_csv(b.report));
    ASSERT_EQ(lines.size(), 7U);
    EXPECT_EQ(lines[0], "claim,source,kind,step,metric,cell,baseline,paper,paper_value,tolerance,"
                        "measured,value,ci95_low,ci95_high,ci90_low,ci90_high,verdict,why,"
                        "explanation,verdict_text,own,look,looks");
    EXPECT_EQ(lines[1],
              "17 vacuums 5.7x faster than 16,seed 002,ratio,vacuum,server_ms,server=pg17 "
              "clients=10,server=pg16 clients=10,ratio 0.175 (±20%),0.175,0.2,\"0.830 (95% CI "
              "0.785 – 0.878) = 1335.5 / 1608.6 ms, geometric means of 3 rounds, judged in "
              "pairs\",0.830241118737383,0.7847836570039501,0.8783316383955124,"
              "0.7991133590328743,0.8625813940546883,differs,its 95% interval (0.785 – 0.878) "
              "lies wholly outside 0.175 ± 20%,The paper's disk flushes far more slowly than this "
              "machine's,differs: its 95% interval (0.785 – 0.878) lies wholly outside 0.175 ± "
              "20%. The paper's disk flushes far more slowly than this machine's,false,1,1");
    EXPECT_EQ(lines[3],
              "17 with 20 clients serves about as much as 16,,ratio,tpcb,tps,server=pg17 "
              "clients=20,server=pg16 clients=20,ratio 1.000 (±5%),1,0.05,\"0.855 = 1038.9 / "
              "1215.0 tps, geometric means (runs: 1226.1, 959.2, 953.4 / 1205.2, 1224.8; no "
              "interval under 3 runs)\",0.855093775096241,,,,,inconclusive,\"0.855 from 2 runs, "
              "too few for an interval (3 at the least); about 7 more runs of each cell would "
              "likely decide it\",,\"inconclusive: 0.855 from 2 runs, too few for an interval (3 "
              "at the least); about 7 more runs of each cell would likely decide it\",false,1,1");
    const std::string shape_why =
        "clients 10 over 5 is 0.968: its 90% interval (0.938 – 0.999) is not within 1.000 ± 5%, "
        "and "
        "its 95% interval (0.925 – 1.012) reaches it (and 1 more undecided); about 6 more runs of "
        "each level would likely decide it";
    EXPECT_EQ(lines[5], "tps stays flat from 5 to 20 clients,,shape,tpcb,tps,server=pg17,,flat "
                        "along clients (±5%),,0.05,\"5: 1230.1 → 10: 1190.5 → 20: 1038.9 tps; "
                        "each over the first: 0.968 (0.925 – 1.012), 0.845 (0.597 – 1.196)\","
                        ",,,,,inconclusive,\""
                            + shape_why + "\",,\"inconclusive: " + shape_why + "\",false,1,1");
    EXPECT_EQ(lines[6], "a 128kB record size halves tps,seed 004,value,,,,,,,0.1,,,,,,,untestable,"
                        "needs a ZFS file system with a record size per data directory,,cannot be "
                        "tested here: needs a ZFS file system with a record size per data "
                        "directory,false,1,1");
}

TEST(ReportExportTest, JsonAndCsvHoldTheChecksPassingAndFailing) {
    const Built b = build("checks-fixture");
    const json doc = json::parse(export_json(b.results, b.report));
    EXPECT_TRUE(doc["question"].is_null());
    EXPECT_EQ(doc["claims"], json::array());
    const json& checks = doc["checks"];
    ASSERT_EQ(checks.size(), 8U);
    EXPECT_EQ(checks[0], json::parse(R"j({"run": 0, "label": null, "step": "exclusion",
        "kind": "expect_error", "expected": "23P01",
        "actual": "23P01: conflicting key value violates exclusion constraint \"r_during_excl\"",
        "pass": true})j"));
    EXPECT_EQ(checks[1], json::parse(R"j({"run": 0, "label": null, "step": "rows",
        "kind": "expect_rows", "expected": [["1", "a"], ["2", "\\N"]],
        "actual": [["1", "a"], ["2", null]], "pass": true})j"));
    EXPECT_EQ(checks[4], json::parse(R"j({"run": 1, "label": null, "step": "exclusion",
        "kind": "expect_error", "expected": "23P01",
        "actual": "no error (the statements succeeded)", "pass": false})j"));
    EXPECT_EQ(checks[6], json::parse(R"j({"run": 1, "label": null, "step": "blocked",
        "kind": "expect_blocked", "expected": "still waiting after 2 s",
        "actual": "completed after 3 ms", "pass": false})j"));
    std::size_t failed = 0;
    for (const auto& c : checks) {
        failed += c["pass"].get<bool>() ? 0 : 1;
    }
    EXPECT_EQ(failed, 2U); // as the Functional checks section counts them
    Document section;
    EXPECT_EQ(add_checks_section(b.results, section).failed, failed);

    const auto lines = csv_lines(export_checks_csv(b.results));
    ASSERT_EQ(lines.size(), 9U);
    EXPECT_EQ(lines[0], "run,label,step,kind,expected,actual,pass");
    EXPECT_EQ(lines[1], "0,,exclusion,expect_error,23P01,\"23P01: conflicting key value violates "
                        "exclusion constraint \"\"r_during_excl\"\"\",true");
    EXPECT_EQ(lines[2], "0,,rows,expect_rows,\"(1, a); (2, \\N)\",\"(1, a); (2, NULL)\",true");
    EXPECT_EQ(lines[3], "0,,blocked,expect_blocked,still waiting after 2 s,\"still waiting after "
                        "2 s (Lock: relation, blocked by pid 4242)\",true");
    EXPECT_EQ(lines[4], "0,,plan,expect_plan,Index Only Scan,\"Limit, Index Only Scan\",true");
    EXPECT_EQ(lines[5],
              "1,,exclusion,expect_error,23P01,no error (the statements succeeded),false");
    EXPECT_EQ(lines[7], "1,,blocked,expect_blocked,still waiting after 2 s,completed after 3 ms,"
                        "false");
}

// The cells' CSV keeps its header: the claims and checks have formats of their own.
TEST(ReportExportTest, CellsCsvHeaderIsUnchanged) {
    const Built b = build("results-fixture");
    const auto lines = csv_lines(export_csv(b.results, b.report.steps));
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0], "step,step_type,metric,unit,cell,label,n,mean,stddev,median,min,max,"
                        "ci95_low,ci95_high,cv");
}

} // namespace
} // namespace pglab::lab::report
