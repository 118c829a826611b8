// lab/store: reading results.jsonl by the one rule (complete lines, a torn last line, each kind
// of damaged line) and reopening a results directory for --resume, which finishes exactly the
// runs the reader gives and cuts a torn last line off.
#include "lab/report/results.hpp"
#include "lab/store/results_store.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "temp_dir_test_base.hpp"

namespace {

namespace fs = std::filesystem;
namespace store = pglab::lab::store;

class StoreJsonl : public pglab::lab::testing::TempDirTest {
protected:
    fs::path write(const std::string& text) {
        const fs::path p = m_dir / "results.jsonl";
        std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
        return p;
    }

    static std::string read_text(const fs::path& p) {
        std::ifstream in(p, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }
};

/// A results.jsonl line of run `run` (cell 0, status ok), as pglab writes it.
std::string run_line(std::size_t run) {
    store::RunRecord r;
    r.run = run;
    return to_json(r).dump() + "\n";
}

const std::string k_two = run_line(0) + run_line(1);

/// The plan of runs 0 to 7 of cell 0, as run_line() writes them.
store::PlanRecord plan_of_eight() {
    store::PlanRecord plan;
    for (std::size_t run = 0; run < 8; ++run) {
        plan.runs.push_back({run, 0, 0, false, 0});
    }
    return plan;
}

std::set<std::size_t> ordinals(const store::ResultsFile& file) {
    std::set<std::size_t> out;
    for (const auto& run : file.runs) {
        out.insert(run.record.run);
    }
    return out;
}

TEST_F(StoreJsonl, CompleteLines) {
    const auto c = store::read_results(write(k_two));
    ASSERT_TRUE(c) << c.error().message;
    ASSERT_EQ(c->runs.size(), 2u);
    EXPECT_EQ(c->runs[1].record.run, 1u);
    EXPECT_EQ(c->runs[1].line, 2u);
    EXPECT_TRUE(c->problems.empty());
    EXPECT_FALSE(c->torn);
    EXPECT_EQ(c->complete_bytes, k_two.size());
}

TEST_F(StoreJsonl, MissingFileIsEmpty) {
    const auto c = store::read_results(m_dir / "none.jsonl");
    ASSERT_TRUE(c);
    EXPECT_FALSE(c->exists);
    EXPECT_TRUE(c->runs.empty());
    EXPECT_FALSE(c->torn);
}

TEST_F(StoreJsonl, TornLastLineIsIgnored) {
    const std::string whole = run_line(2);
    for (const std::string& tail : {whole.substr(0, 20), whole.substr(0, whole.size() - 1),
                                    std::string("[1,2]\n"), std::string("not json\n")}) {
        SCOPED_TRACE(tail);
        const auto c = store::read_results(write(k_two + tail));
        ASSERT_TRUE(c) << c.error().message;
        EXPECT_EQ(c->runs.size(), 2u);
        EXPECT_TRUE(c->torn);
        EXPECT_EQ(c->complete_bytes, k_two.size());
        ASSERT_EQ(c->problems.size(), 1u);
        EXPECT_EQ(c->problems[0].line, 3u);
    }
}

/// One line of each kind the rule names, with the runs it finishes: 0, 3 and 4.
std::string damaged_corpus() {
    std::string unknown_status = run_line(1);
    unknown_status.replace(unknown_status.find("\"status\":\"ok\""), 13, "\"status\":\"lost\"");
    nlohmann::json no_cell = nlohmann::json::parse(run_line(2));
    no_cell.erase("cell");
    nlohmann::json extra = nlohmann::json::parse(run_line(3));
    extra["a_field_of_tomorrow"] = {{"x", 1}};
    store::RunRecord strange;
    strange.run = 4;
    strange.steps.push_back({});
    nlohmann::json strange_step = to_json(strange);
    strange_step["steps"][0]["type"] = "quantum";
    nlohmann::json wrong_type = nlohmann::json::parse(run_line(5));
    wrong_type["repetition"] = "first";
    return run_line(0)                  // line 1: finished
           + unknown_status             // line 2: an unknown status
           + no_cell.dump() + "\n"      // line 3: no cell
           + run_line(0)                // line 4: run 0 again
           + "{\"run\": 6, \"cell\n"    // line 5: a corrupt line in the middle
           + extra.dump() + "\n"        // line 6: finished, with an unknown field
           + strange_step.dump() + "\n" // line 7: finished, with an unknown step type
           + wrong_type.dump() + "\n"   // line 8: a field of the wrong type
           + run_line(7).substr(0, 30); // line 9: torn
}

TEST_F(StoreJsonl, EachKindOfDamagedLineHasOneMeaning) {
    const auto c = store::read_results(write(damaged_corpus()));
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(ordinals(*c), (std::set<std::size_t>{0, 3, 4}));
    std::vector<std::size_t> skipped;
    for (const auto& p : c->problems) {
        EXPECT_EQ(p.skipped, p.line != 6) << p.line << ": " << p.what;
        skipped.push_back(p.line);
    }
    EXPECT_EQ(skipped, (std::vector<std::size_t>{2, 3, 4, 5, 6, 8, 9}));
    EXPECT_TRUE(c->torn);
    EXPECT_NE(c->problems[3].what.find("not valid JSON"), std::string::npos);
    EXPECT_NE(c->problems[2].what.find("run 0 appears a second time"), std::string::npos);
    // A field it does not know is left out, with a word.
    EXPECT_EQ(c->runs[1].record.run, 3U);
    EXPECT_EQ(c->problems[4].what, "a_field_of_tomorrow ({\"x\":1}) is not read: left out");
    EXPECT_EQ(c->runs[2].record.steps.at(0).type, "quantum");
}

/// Run `run` with one step of `type` whose own fields are `own`, as pglab writes it.
nlohmann::json run_with_step(std::size_t run, const std::string& type, const nlohmann::json& own) {
    nlohmann::json line = nlohmann::json::parse(run_line(run));
    nlohmann::json step = {{"index", 0},          {"key", "0:" + type}, {"type", type},
                           {"server", "default"}, {"status", "ok"},     {"error", nullptr},
                           {"elapsed_ms", 12.5},  {"log", nullptr},     {"probes", nullptr}};
    step.update(own);
    line["steps"] = nlohmann::json::array({step});
    return line;
}

TEST_F(StoreJsonl, AValueLeftOutOrReadAsAnotherIsNamedNeverDroppedInSilence) {
    nlohmann::json probe = run_with_step(0, "sql", {{"session", "s"}});
    probe["steps"][0]["probes"] = {{"wal.bytes", "4096"}, {"wal.records", 12}};
    nlohmann::json point = run_with_step(
        1, "bench",
        {{"bench",
          {{"totals", {{"tps", 101.5}}},
           {"series",
            {{"points",
              {{{"elapsed_s", 1.0}, {"tps", 100}}, {{"elapsed_s", "2.0"}, {"tps", 103}}}}}}}}});
    nlohmann::json sleep = run_with_step(2, "sleep", {{"duration_ms", "100"}});
    nlohmann::json settle = nlohmann::json::parse(run_line(3));
    settle["settle"] = {
        {"checkpoint_ms", "fast"}, {"waited_ms", 1.5}, {"settled", true}, {"busy", nullptr}};
    const auto c = store::read_results(write(probe.dump() + "\n" + point.dump() + "\n"
                                             + sleep.dump() + "\n" + settle.dump() + "\n"));
    ASSERT_TRUE(c) << c.error().message;
    // Left out, the line kept: a probe value that is not a number, a bench point whose time is
    // a string.
    EXPECT_EQ(ordinals(*c), (std::set<std::size_t>{0, 1}));
    ASSERT_EQ(c->problems.size(), 4u);
    EXPECT_EQ(c->problems[0].line, 1u);
    EXPECT_FALSE(c->problems[0].skipped);
    EXPECT_EQ(c->problems[0].what, "steps[0].probes.wal.bytes (\"4096\") is not read: left out");
    EXPECT_EQ(c->runs[0].record.steps[0].probes->size(), 1u);
    EXPECT_EQ(c->problems[1].line, 2u);
    EXPECT_FALSE(c->problems[1].skipped);
    EXPECT_EQ(c->problems[1].what, "steps[0].bench.series.points[1].elapsed_s is \"2.0\", not a "
                                   "number: the point is left out");
    // Read as something else (0), which the report would use: the line is skipped.
    EXPECT_EQ(c->problems[2].line, 3u);
    EXPECT_TRUE(c->problems[2].skipped);
    EXPECT_EQ(c->problems[2].what, "steps[0].duration_ms is \"100\", which this pglab reads as 0");
    EXPECT_EQ(c->problems[3].line, 4u);
    EXPECT_TRUE(c->problems[3].skipped);
    EXPECT_EQ(c->problems[3].what,
              "settle.checkpoint_ms is \"fast\", which this pglab reads as 0.0");
}

TEST_F(StoreJsonl, ASealedLineChangedAfterItWasWrittenIsSkipped) {
    auto created =
        store::ResultsStore::create(m_dir / "results", "name = \"x\"\n", store::PlanRecord{});
    ASSERT_TRUE(created) << created.error().message;
    nlohmann::json line = run_with_step(0, "timed-sql",
                                        {{"session", "s"},
                                         {"statement", "SELECT 1"},
                                         {"client_ms", 1.25},
                                         {"server_ms", 1.0},
                                         {"rows", 1}});
    ASSERT_TRUE(created->append(line));
    ASSERT_TRUE(created->append(run_with_step(1, "sleep", {{"duration_ms", 100}})));
    const fs::path file = m_dir / "results" / "results.jsonl";
    std::string text = read_text(file);
    EXPECT_NE(text.find("\"crc32\":\""), std::string::npos) << text;
    {
        const auto intact = store::read_results(file);
        ASSERT_TRUE(intact);
        EXPECT_EQ(ordinals(*intact), (std::set<std::size_t>{0, 1}));
        EXPECT_TRUE(intact->problems.empty());
    }
    // One digit of a figure, still valid JSON of the right type: only the checksum tells.
    text.replace(text.find("1.25"), 4, "7.25");
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
    const auto changed = store::read_results(file);
    ASSERT_TRUE(changed);
    EXPECT_EQ(ordinals(*changed), (std::set<std::size_t>{1}));
    ASSERT_EQ(changed->problems.size(), 1u);
    EXPECT_EQ(changed->problems[0].line, 1u);
    EXPECT_TRUE(changed->problems[0].skipped);
    EXPECT_EQ(changed->problems[0].what,
              "its crc32 does not match its content: the line was changed after pglab wrote it");
}

TEST_F(StoreJsonl, ResumeFinishesExactlyTheRunsTheReportShows) {
    const fs::path dir = m_dir / "results";
    { ASSERT_TRUE(store::ResultsStore::create(dir, "", plan_of_eight())); }
    std::ofstream(dir / "results.jsonl", std::ios::binary | std::ios::trunc) << damaged_corpus();
    const auto read = store::read_results(dir / "results.jsonl");
    ASSERT_TRUE(read);
    // What the report shows, before --resume cuts the torn line off.
    const auto reported = pglab::lab::report::load_results(dir);
    ASSERT_TRUE(reported) << reported.error().message;
    std::set<std::size_t> shown;
    for (const auto& run : reported->runs) {
        shown.insert(run.record.run);
    }
    auto opened = store::ResultsStore::open(dir);
    ASSERT_TRUE(opened) << opened.error().message;
    EXPECT_EQ(opened->finished(), ordinals(*read));
    EXPECT_EQ(opened->finished(), shown);
    // The torn line is cut off; the damaged lines before it stay, new lines follow them.
    ASSERT_TRUE(opened->append(nlohmann::json::parse(run_line(1))));
    const auto after = store::read_results(dir / "results.jsonl");
    ASSERT_TRUE(after);
    EXPECT_FALSE(after->torn);
    EXPECT_EQ(ordinals(*after), (std::set<std::size_t>{0, 1, 3, 4}));
}

TEST_F(StoreJsonl, ResumeCutsTheTornLineAndAppendsAfterTheGoodOnes) {
    const std::string experiment = "[[steps]]\ntype = \"bench\"\n";
    const fs::path dir = m_dir / "results";
    {
        auto created = store::ResultsStore::create(dir, experiment, plan_of_eight());
        ASSERT_TRUE(created) << created.error().message;
        ASSERT_TRUE(created->append(nlohmann::json::parse(run_line(0))));
    }
    EXPECT_EQ(read_text(dir / "experiment.toml"), experiment);
    std::ofstream(dir / "results.jsonl", std::ios::app) << run_line(1).substr(0, 25);
    auto opened = store::ResultsStore::open(dir);
    ASSERT_TRUE(opened) << opened.error().message;
    EXPECT_EQ(opened->finished(), (std::set<std::size_t>{0}));
    ASSERT_TRUE(opened->append(nlohmann::json::parse(run_line(1))));
    const auto c = store::read_results(dir / "results.jsonl");
    ASSERT_TRUE(c);
    ASSERT_EQ(c->runs.size(), 2u);
    EXPECT_FALSE(c->torn);
    EXPECT_EQ(c->runs[1].record.run, 1u);
}

TEST_F(StoreJsonl, AnOpenStoreLocksItsDirectoryAgainstASecondRunner) {
    const fs::path dir = m_dir / "results";
    auto created = store::ResultsStore::create(dir, "", store::PlanRecord{});
    ASSERT_TRUE(created) << created.error().message;
    const std::string in_use = "is in use by pglab (pid " + std::to_string(::getpid()) + ")";
    auto second = store::ResultsStore::open(dir);
    ASSERT_FALSE(second);
    EXPECT_NE(second.error().message.find(in_use), std::string::npos) << second.error().message;
    auto again = store::ResultsStore::create(dir, "", store::PlanRecord{});
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find(in_use), std::string::npos) << again.error().message;
    { const store::ResultsStore released = std::move(*created); }
    auto reopened = store::ResultsStore::open(dir);
    EXPECT_TRUE(reopened) << reopened.error().message;
}

TEST_F(StoreJsonl, ACreatedDirectoryAppearsWholeOrNotAtAll) {
    const fs::path dir = m_dir / "results";
    {
        auto created = store::ResultsStore::create(dir, "x", store::PlanRecord{});
        ASSERT_TRUE(created) << created.error().message;
        EXPECT_TRUE(fs::exists(dir / "plan.json"));
        EXPECT_TRUE(fs::exists(dir / "experiment.toml"));
    }
    // Nothing of the making is left beside it.
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(m_dir)) {
        ++entries;
    }
    EXPECT_EQ(entries, 1u);
}

// An empty directory the user made (a mount point, one with its own mode) is filled, never
// renamed over; a plan rewritten on --resume goes through a link to plan.json and keeps it.
TEST_F(StoreJsonl, AnEmptyDirectoryOfTheUsersIsFilledNotReplaced) {
    const fs::path dir = m_dir / "theirs";
    fs::create_directory(dir);
    fs::permissions(dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);

    struct stat before {};

    ASSERT_EQ(::stat(dir.c_str(), &before), 0);
    {
        auto created = store::ResultsStore::create(dir, "x", store::PlanRecord{});
        ASSERT_TRUE(created) << created.error().message;
        fs::rename(dir / "plan.json", m_dir / "kept-plan.json");
        fs::create_symlink(m_dir / "kept-plan.json", dir / "plan.json");
        store::PlanRun run;
        ASSERT_TRUE(created->add_planned_runs({run}));
    }

    struct stat after {};

    ASSERT_EQ(::stat(dir.c_str(), &after), 0);
    EXPECT_EQ(after.st_ino, before.st_ino);
    EXPECT_EQ(after.st_mode, before.st_mode);
    EXPECT_TRUE(fs::exists(dir / "experiment.toml"));
    EXPECT_TRUE(fs::is_symlink(dir / "plan.json"));
    EXPECT_NE(read_text(m_dir / "kept-plan.json").find("\"runs\""), std::string::npos);
    std::size_t entries = 0; // theirs and kept-plan.json: nothing of the making beside them
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(m_dir)) {
        ++entries;
    }
    EXPECT_EQ(entries, 2u);
}

TEST_F(StoreJsonl, ServerLogsOfAResumedSessionDoNotReplaceTheFirstOnes) {
    const fs::path dir = m_dir / "results";
    {
        auto created = store::ResultsStore::create(dir, "", store::PlanRecord{});
        ASSERT_TRUE(created);
        EXPECT_EQ(created->server_log("default", 1), dir / "servers/default/1-postgresql.log");
        std::ofstream(created->server_log("default", 1)) << "first\n";
    }
    {
        auto opened = store::ResultsStore::open(dir);
        ASSERT_TRUE(opened);
        EXPECT_EQ(opened->server_log("default", 1),
                  dir / "servers/default/resume1-1-postgresql.log");
        std::ofstream(opened->server_log("default", 1)) << "second\n";
    }
    auto third = store::ResultsStore::open(dir);
    ASSERT_TRUE(third);
    EXPECT_EQ(third->server_log("default", 2), dir / "servers/default/resume2-2-postgresql.log");
    EXPECT_EQ(read_text(dir / "servers/default/1-postgresql.log"), "first\n");
}

} // namespace
