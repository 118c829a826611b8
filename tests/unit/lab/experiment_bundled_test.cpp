// tests/unit/lab: every bundled experiment (experiments/*.toml) parses and plans.
#include "lab/experiment/parse_experiment.hpp"
#include "lab/plan/plan.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace pglab::lab {
namespace {

TEST(SpecBundledTest, EveryBundledExperimentParsesAndPlans) {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(PGLAB_SOURCE_DIR "/experiments")) {
        if (entry.path().extension() != ".toml") {
            continue;
        }
        ++count;
        auto s = experiment::parse_experiment_file(entry.path());
        ASSERT_TRUE(s) << s.error().message << "\n" << s.error().hint << "\n" << s.error().trailer;
        auto p = plan::build_plan(*s, 1);
        ASSERT_TRUE(p) << entry.path() << ": " << p.error().message;
        EXPECT_FALSE(p->runs.empty()) << entry.path();
    }
    EXPECT_GE(count, 10);
}

// Every study (s*.toml) asks its question and has a quick form with no more runs than the full
// one can make; each claim names a step, or says why it cannot be tested.
TEST(SpecBundledTest, EveryStudyHasAQuestionAndAQuickForm) {
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(PGLAB_SOURCE_DIR "/experiments")) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() != ".toml" || name.rfind("s", 0) != 0) {
            continue;
        }
        ++count;
        SCOPED_TRACE(name);
        auto full = experiment::parse_experiment_file(entry.path());
        ASSERT_TRUE(full) << full.error().message;
        EXPECT_FALSE(full->question.empty());
        experiment::ParseOptions quick_options;
        quick_options.quick = true;
        auto quick = experiment::parse_experiment_file(entry.path(), quick_options);
        ASSERT_TRUE(quick) << quick.error().message;
        EXPECT_TRUE(quick->is_quick);
        auto full_plan = plan::build_plan(*full, 1);
        auto quick_plan = plan::build_plan(*quick, 1);
        ASSERT_TRUE(full_plan && quick_plan);
        // A full form that adds rounds until decided may make up to `max` runs of each cell.
        const std::size_t full_most = full->until_decided
                                          ? full->until_decided->max * full_plan->cells.size()
                                          : full_plan->runs.size();
        EXPECT_LE(quick_plan->runs.size(), full_most);
        for (const auto& c : full->claims) {
            EXPECT_TRUE(!c.text.empty() && (!c.untestable.empty() || !c.step.empty())) << c.text;
        }
    }
    EXPECT_GE(count, 12);
}

TEST(SpecBundledTest, StudyShapes) {
    auto s3b = experiment::parse_experiment_file(PGLAB_SOURCE_DIR
                                                 "/experiments/s3b-vacuum-after-updates.toml");
    ASSERT_TRUE(s3b) << s3b.error().message;
    auto p = plan::build_plan(*s3b, 1);
    ASSERT_TRUE(p);
    // 2 versions x 3 sync delays x 2 ring sizes x (3 indexed cases + 1 without index), and
    // pglab's extra cells from a checkpoint on the two plain servers: 2 x 2 x 4
    EXPECT_EQ(p->cells.size(), 64u);
    EXPECT_EQ(p->runs.size(), 192u);
    for (const auto& server : s3b->servers) {
        EXPECT_TRUE(server.sync_delay_us) << server.name; // every VACUUM's syncs are counted
        EXPECT_EQ(server.memory_limit_bytes, 1ULL << 30) << server.name; // the t3.micro's 1 GiB
    }
    auto s2 = experiment::parse_experiment_file(PGLAB_SOURCE_DIR
                                                "/experiments/s2-shared-buffers-memory-limit.toml");
    ASSERT_TRUE(s2) << s2.error().message;
    ASSERT_EQ(s2->servers.size(), 1u);
    // The data (scale 400, about 6 GB) are about four times the limit.
    EXPECT_EQ(s2->servers[0].memory_limit_bytes, 1536ULL << 20);
    // The paper's machine: `free -m` showed 1223 MiB available (MB in PostgreSQL's units).
    auto paper =
        experiment::parse_experiment_file(PGLAB_SOURCE_DIR "/experiments/s2-paper-machine.toml");
    ASSERT_TRUE(paper) << paper.error().message;
    ASSERT_EQ(paper->servers.size(), 1u);
    EXPECT_EQ(paper->servers[0].memory_limit_bytes, 1200ULL << 20);
    auto s5 =
        experiment::parse_experiment_file(PGLAB_SOURCE_DIR "/experiments/s5-sync-methods.toml");
    ASSERT_TRUE(s5) << s5.error().message;
    // 4 sync methods and fsync off, on this machine's disk and on the modelled 7,200 rpm one
    EXPECT_EQ(plan::build_plan(*s5, 1)->cells.size(), 10u);
}

} // namespace
} // namespace pglab::lab
