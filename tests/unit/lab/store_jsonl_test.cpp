// lab/store: reading results.jsonl (complete lines, a torn last line, a corrupt line in the
// middle) and reopening a results directory for --resume, which cuts a torn last line off.
#include "lab/store/results_store.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
namespace store = pglab::lab::store;

class StoreJsonl : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/pglab-jsonl-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        m_dir = tmpl;
    }

    void TearDown() override {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

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

    fs::path m_dir;
};

constexpr const char* k_two = "{\"run\":0}\n{\"run\":1}\n";

TEST_F(StoreJsonl, CompleteLines) {
    const auto c = store::read_jsonl(write(k_two));
    ASSERT_TRUE(c) << c.error().message;
    ASSERT_EQ(c->lines.size(), 2u);
    EXPECT_EQ(c->lines[1]["run"], 1);
    EXPECT_FALSE(c->torn);
    EXPECT_EQ(c->valid_bytes, std::string(k_two).size());
}

TEST_F(StoreJsonl, MissingFileIsEmpty) {
    const auto c = store::read_jsonl(m_dir / "none.jsonl");
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->lines.empty());
    EXPECT_FALSE(c->torn);
}

TEST_F(StoreJsonl, TornLastLineIsIgnored) {
    for (const std::string tail : {"{\"run\":2,\"st", "{\"run\":2}", "[1,2]\n", "not json\n"}) {
        SCOPED_TRACE(tail);
        const auto c = store::read_jsonl(write(k_two + tail));
        ASSERT_TRUE(c) << c.error().message;
        EXPECT_EQ(c->lines.size(), 2u);
        EXPECT_TRUE(c->torn);
        EXPECT_EQ(c->valid_bytes, std::string(k_two).size());
    }
}

TEST_F(StoreJsonl, CorruptLineInTheMiddleNamesItsLine) {
    const fs::path p = write("{\"run\":0}\n{\"run\":1}\n{\"run\":\n{\"run\":3}\n");
    const auto c = store::read_jsonl(p);
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("\"" + p.string() + "\" line 3: not a JSON object"),
              std::string::npos)
        << c.error().message;
}

TEST_F(StoreJsonl, ResumeCutsTheTornLineAndAppendsAfterTheGoodOnes) {
    const std::string experiment = "[[steps]]\ntype = \"bench\"\n";
    const fs::path dir = m_dir / "results";
    {
        auto created = store::ResultsStore::create(dir, experiment, store::PlanRecord{});
        ASSERT_TRUE(created) << created.error().message;
        ASSERT_TRUE(created->append({{"run", 0}}));
    }
    EXPECT_EQ(read_text(dir / "experiment.toml"), experiment);
    std::ofstream(dir / "results.jsonl", std::ios::app) << "{\"run\":1,\"sta";
    auto opened = store::ResultsStore::open(dir);
    ASSERT_TRUE(opened) << opened.error().message;
    EXPECT_EQ(opened->finished(), (std::set<std::size_t>{0}));
    ASSERT_TRUE(opened->append({{"run", 1}}));
    const auto c = store::read_jsonl(dir / "results.jsonl");
    ASSERT_TRUE(c);
    ASSERT_EQ(c->lines.size(), 2u);
    EXPECT_FALSE(c->torn);
    EXPECT_EQ(c->lines[1]["run"], 1);
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
