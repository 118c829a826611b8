// The command lines of `pglab run`, `report`, `compare` and `server` that users and scripts rely
// on: the forms accepted (--opt VALUE, --opt=VALUE, options before and after the operands) and,
// for each kind of mistake, the exact message, its hint and exit status 1. No server is needed:
// the runs are --dry-run, the reports read a stored results directory. (Pinned before the
// parsers moved to CLI11; since then a missing value is said one way for every option, "option
// --NAME needs ...", and a value that starts with '-' is a value, not a missing one.)
#include "support/files.hpp"
#include "support/run_command.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

/// "run --seed x" as argv after the program.
std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;) {
        out.push_back(w);
    }
    return out;
}

struct Rejected {
    const char* args;
    const char* err; ///< the whole of stderr
};

std::string hinted(const std::string& error, const std::string& command) {
    return "pglab: error: " + error + "\npglab: hint: Try \"pglab " + command
           + " --help\" for more information.\n";
}

class CliSubcommands : public support::LabTestDir {
protected:
    void SetUp() override {
        LabTestDir::SetUp();
        m_results = m_dir / "results-fixture";
        fs::copy(fs::path(PGLAB_SOURCE_DIR) / "tests/golden/report/results-fixture", m_results,
                 fs::copy_options::recursive);
        m_experiment = write("cli.toml", R"toml(name = "cli"
repeat = 3

[quick]
repeat = 1

[[steps]]
type = "sql"
sql = "SELECT 1"
)toml");
    }

    /// `pglab ARGS`, where "RESULTS" stands for a copy of the report's fixture, "DIR" for this
    /// test's directory and "EXPERIMENT" for an experiment file with a quick form.
    support::CommandResult pglab(const std::string& line) const {
        std::vector<std::string> argv = {support::pglab_binary()};
        for (std::string w : words(line)) {
            for (const auto& [name, value] :
                 {std::pair<std::string, std::string>{"RESULTS", m_results.string()},
                  {"DIR", m_dir.string()},
                  {"EXPERIMENT", m_experiment.string()}}) {
                for (auto at = w.find(name); at != std::string::npos; at = w.find(name)) {
                    w.replace(at, name.size(), value);
                }
            }
            argv.push_back(w);
        }
        return support::run_command(argv, env());
    }

    fs::path m_results;
    fs::path m_experiment;
};

TEST_F(CliSubcommands, MistakesAreNamedWithAHintAndStatus1) {
    const std::string run = "run";
    const std::string report = "report";
    const std::string compare = "compare";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"run", hinted("no experiment file given", run)},
        {"run --bogus", hinted("unknown option \"--bogus\"", run)},
        {"run EXPERIMENT --bogus=1", hinted("unknown option \"--bogus=1\"", run)},
        {"run --results", hinted("option --results needs a directory", run)},
        {"run --resume", hinted("option --resume needs a directory", run)},
        {"run --seed", hinted("option --seed needs a non-negative integer", run)},
        {"run EXPERIMENT --seed -1", hinted("invalid value \"-1\" for option --seed", run)},
        {"run EXPERIMENT --seed 18446744073709551616",
         hinted("invalid value \"18446744073709551616\" for option --seed", run)},
        // An empty value is no value: the next argument is not taken in its place.
        {"run --results= EXPERIMENT", hinted("option --results needs a directory", run)},
        {"run EXPERIMENT --seed=x", hinted("invalid value \"x\" for option --seed", run)},
        {"run a.toml b.toml", hinted("too many arguments", run)},
        {"run --resume DIR --quick",
         hinted("--resume cannot be combined with --results, --seed or --quick", run)},
        {"run --resume=DIR --seed 3",
         hinted("--resume cannot be combined with --results, --seed or --quick", run)},
        {"run --resume DIR EXPERIMENT",
         hinted("--resume takes the experiment from the results directory", run)},
        {"run --estimate-from RESULTS EXPERIMENT", hinted("--estimate-from is for --dry-run", run)},

        {"report", hinted("no results directory given", report)},
        {"report --bogus", hinted("unknown option \"--bogus\"", report)},
        {"report a b", hinted("give exactly one results directory", report)},
        {"report RESULTS --format=pdf",
         hinted("--format must be md, html, csv, json, claims-csv or checks-csv", report)},
        {"report RESULTS -o", hinted("option --output needs a path", report)},
        {"report RESULTS --output=", hinted("option --output needs a path", report)},
        {"report RESULTS --format", hinted("option --format needs a value", report)},
        {"report RESULTS --cv-warning 0",
         hinted("--cv-warning must be a positive percentage", report)},
        {"report RESULTS --min-runs 1.5", hinted("--min-runs must be a positive integer", report)},
        {"report RESULTS -o x.txt",
         hinted("give --format with --output (md, html, csv or json)", report)},
        {"report RESULTS --claims", hinted("option --claims needs an experiment file", report)},

        {"compare", hinted("give one results directory (with --by or --a/--b) or two", compare)},
        {"compare a b c",
         hinted("give one results directory (with --by or --a/--b) or two", compare)},
        {"compare RESULTS",
         hinted("with one results directory, say what to compare: --by NAME=A,B or --a SELECTOR "
                "--b SELECTOR",
                compare)},
        {"compare RESULTS --by", hinted("option --by needs a value", compare)},
        {"compare RESULTS RESULTS --metric", hinted("option --metric needs a value", compare)},
        {"compare RESULTS --by x", hinted("invalid --by \"x\": write NAME=A,B", compare)},
        {"compare RESULTS --by server=pg16,pg17 --a server=pg16",
         hinted("--by cannot be combined with --a/--b", compare)},
        {"compare RESULTS --alpha 2", hinted("--alpha must be between 0 and 1", compare)},
        {"compare RESULTS --format xml", hinted("--format must be text, md or json", compare)},
        {"compare RESULTS --fail-if-slower -1",
         hinted("--fail-if-slower must be a percentage (0 or more)", compare)},
        {"compare RESULTS --bogus", hinted("unknown option \"--bogus\"", compare)},

        {"server bogus", hinted("unknown server command \"bogus\"", "server")},
        {"server --force", hinted("no server command given (list, fetch or build)", "server")},
        {"server list --force",
         hinted("--force, --no-check and --configure are options of fetch and build", "server")},
        {"server fetch --configure=--enable-debug 17",
         hinted("--configure is an option of build", "server")},
        {"server build",
         hinted("build needs the PATH of a PostgreSQL source tree, e.g. \"pglab server build "
                "~/src/postgresql\"",
                "server")},
        {"server build a b", "pglab: error: build takes one PATH, got \"b\" too\n"},
        {"server build --no-check a", hinted("--no-check is an option of fetch", "server")},
        {"server list x", "pglab: error: list takes no arguments, got \"x\"\n"},
        {"server fetch", hinted("fetch needs a VERSION, e.g. \"pglab server fetch 17\"", "server")},
        {"server fetch --bogus 17", hinted("unknown option \"--bogus\"", "server")},
        {"server fetch 17 18", "pglab: error: fetch takes one VERSION, got \"18\" too\n"},
    };
    for (const auto& [line, err] : cases) {
        SCOPED_TRACE(line);
        const support::CommandResult r = pglab(line);
        EXPECT_EQ(r.exit_code, 1) << support::describe(r);
        EXPECT_EQ(r.err, err);
        EXPECT_EQ(r.out, "");
    }
}

TEST_F(CliSubcommands, EachHelpListsEveryOption) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> helps = {
        {"run",
         {"--results", "--resume", "--seed", "--dry-run", "--estimate-from", "--quick", "--help"}},
        {"report",
         {"--format", "--output", "-o", "--no-charts", "--claims", "--cv-warning", "--min-runs",
          "--help"}},
        {"compare",
         {"--by", "--a", "--b", "--metric", "--step", "--alpha", "--format", "--output", "-o",
          "--fail-if-slower", "--help"}},
        {"server", {"list", "fetch", "build", "--force", "--no-check", "--configure"}},
    };
    for (const auto& [command, options] : helps) {
        for (const std::string flag : {"--help", "-?"}) {
            SCOPED_TRACE(command + " " + flag);
            const support::CommandResult r = pglab(command + " " + flag);
            EXPECT_EQ(r.exit_code, 0) << support::describe(r);
            EXPECT_EQ(r.err, "");
            EXPECT_EQ(r.out.rfind("pglab " + command, 0), 0u) << r.out;
            for (const std::string& option : options) {
                EXPECT_NE(r.out.find(option), std::string::npos) << option << " in\n" << r.out;
            }
        }
    }
}

TEST_F(CliSubcommands, EachHelpGivesTheDefaults) {
    const std::vector<std::pair<std::string, std::string>> defaults = {
        {"run", "--results DIR        write the results into DIR (default: "
                "results/<name>-<timestamp>)"},
        {"report", "--cv-warning PCT   warn when runs of a cell vary more than PCT percent "
                   "(default: 10)"},
        {"report", "--min-runs N       warn when a cell has fewer measured runs (default: 3)"},
        {"compare", "--alpha A             significance level (default: 0.05)"},
        {"compare", "--format FORMAT       text, md or json (default: text)"},
    };
    for (const auto& [command, text] : defaults) {
        const support::CommandResult r = pglab(command + " --help");
        EXPECT_NE(r.out.find(text), std::string::npos) << text << " in\n" << r.out;
    }
}

TEST_F(CliSubcommands, RunTakesOptionsInEitherFormAndPlace) {
    for (const std::string line :
         {"run EXPERIMENT --dry-run", "run --dry-run EXPERIMENT",
          "run EXPERIMENT --dry-run --seed=7", "run EXPERIMENT --seed 7 --dry-run --quick",
          "run --results=DIR/r --dry-run EXPERIMENT", "run --results DIR/r EXPERIMENT --dry-run"}) {
        SCOPED_TRACE(line);
        const support::CommandResult r = pglab(line);
        EXPECT_EQ(r.exit_code, 0) << support::describe(r);
        EXPECT_NE(r.out.find("runs"), std::string::npos) << r.out;
    }
}

// A dry run refuses what the run would refuse, shows how to follow the order it drew, and takes
// its time from an earlier run's results (issue 62, stage 4).
TEST_F(CliSubcommands, ADryRunChecksWhatTheRunChecksAndSaysHowToFollowItsOrder) {
    const support::CommandResult existing = pglab("run --dry-run --results RESULTS EXPERIMENT");
    EXPECT_EQ(existing.exit_code, 1) << support::describe(existing);
    EXPECT_NE(existing.err.find("results directory \"" + m_results.string()
                                + "\" already exists and is not empty"),
              std::string::npos)
        << existing.err;
    EXPECT_TRUE(existing.out.empty()) << existing.out;

    write("ordered.toml", "name = \"ordered\"\nrepeat = 2\norder = \"random\"\n[matrix]\n"
                          "params.n = [1, 2, 3]\n[[steps]]\ntype = \"sql\"\nsql = \"SELECT 1\"\n");
    const support::CommandResult drawn = pglab("run --dry-run DIR/ordered.toml");
    ASSERT_EQ(drawn.exit_code, 0) << support::describe(drawn);
    const auto at = drawn.out.find("seed ");
    ASSERT_NE(at, std::string::npos) << drawn.out;
    const std::string seed =
        drawn.out.substr(at + 5, drawn.out.find_first_of(" \n", at + 5) - at - 5);
    EXPECT_NE(drawn.out.find("(drawn now: `pglab run --seed " + seed + " "
                             + (m_dir / "ordered.toml").string()
                             + "` runs in the order below; without --seed the run draws another)"),
              std::string::npos)
        << drawn.out;
    // That seed gives the same order; a seed given is not said to be drawn.
    const support::CommandResult again =
        pglab("run --dry-run --seed " + seed + " DIR/ordered.toml");
    ASSERT_EQ(again.exit_code, 0) << support::describe(again);
    EXPECT_EQ(again.out.find("drawn now"), std::string::npos) << again.out;
    const auto runs = [](const std::string& out) { return out.substr(out.find("\n   0  cell")); };
    EXPECT_EQ(runs(again.out), runs(drawn.out));

    // The server is named with where its binaries come from.
    EXPECT_NE(drawn.out.find("server default: throwaway, PostgreSQL "), std::string::npos)
        << drawn.out;
    EXPECT_NE(drawn.out.find("(the newest installed: the file names none)"), std::string::npos)
        << drawn.out;

    // An earlier run's results time the steps the file cannot: 1 s a statement, 0.5 s a run for
    // the server, 3 runs. Another experiment's results are refused.
    fs::create_directories(m_dir / "earlier");
    write("earlier/plan.json",
          R"({"version": "pglab.plan/1", "experiment": "cli", "created_at": "2026-12-01T10:00:00Z",
              "runs": [{"run": 0, "cell": 0, "repetition": 1, "warmup": false, "round": 1}]})");
    write("earlier/results.jsonl",
          R"({"version": "pglab.run/1", "run": 0, "cell": 0, "repetition": 1, "round": 1, )"
          R"("warmup": false, "status": "ok", "label": "", "timings": {"total_ms": 1500, )"
          R"("steps_ms": 1000, "server_ms": 500, "overhead_ms": 0, "restarts": 0}, "steps": )"
          R"([{"index": 0, "key": "0:sql", "type": "sql", "status": "ok", "elapsed_ms": 1000}]})"
          "\n");
    const support::CommandResult timed =
        pglab("run --dry-run --estimate-from DIR/earlier EXPERIMENT");
    ASSERT_EQ(timed.exit_code, 0) << support::describe(timed);
    EXPECT_NE(timed.out.find("time: about 5s (bench durations and sleeps from the file; the other "
                             "steps, and 0.5 s a run for the servers, as 1 run of "
                             + (m_dir / "earlier").string() + " measured them on 2026-12-01)"),
              std::string::npos)
        << timed.out;
    const support::CommandResult other = pglab("run --dry-run --estimate-from RESULTS EXPERIMENT");
    EXPECT_EQ(other.exit_code, 1) << support::describe(other);
    EXPECT_NE(other.err.find("no finished run of experiment \"cli\" there"), std::string::npos)
        << other.err;
}

TEST_F(CliSubcommands, ReportAndCompareTakeOptionsInEitherFormAndPlace) {
    for (const std::string line :
         {"report RESULTS --format=json --output=-", "report --format json -o - RESULTS",
          "report RESULTS --cv-warning=5 --min-runs 2 --format csv -o -",
          "report RESULTS --claims RESULTS/experiment.toml --format claims-csv -o -",
          "compare RESULTS --by server=pg16,pg17 --metric tps",
          "compare --by=server=pg16,pg17 RESULTS --metric=tps --alpha=0.1 --format md",
          "compare RESULTS --a server=pg16 --b server=pg17 --format=json -o -",
          "compare RESULTS RESULTS --metric tps"}) {
        SCOPED_TRACE(line);
        const support::CommandResult r = pglab(line);
        EXPECT_EQ(r.exit_code, 0) << support::describe(r);
        EXPECT_FALSE(r.out.empty());
    }
    const support::CommandResult md = pglab("report RESULTS -o DIR/out.md --no-charts");
    EXPECT_EQ(md.exit_code, 0) << support::describe(md);
    EXPECT_TRUE(fs::exists(m_dir / "out.md"));
    EXPECT_FALSE(fs::exists(m_dir / "charts"));
}

TEST_F(CliSubcommands, ServerListAndItsHelp) {
    const support::CommandResult list = pglab("server list");
    EXPECT_EQ(list.exit_code, 0) << support::describe(list);
    EXPECT_EQ(list.out.rfind("VERSION", 0), 0u) << list.out;
    const support::CommandResult bare = pglab("server");
    EXPECT_EQ(bare.exit_code, 1);
    EXPECT_NE(bare.err.find("pglab server list"), std::string::npos) << bare.err;
}

} // namespace
