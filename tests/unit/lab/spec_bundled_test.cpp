// tests/unit/lab: every bundled experiment (experiments/*.toml) parses and plans.
#include "lab/plan/plan.hpp"
#include "lab/spec/parse_experiment.hpp"

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
        auto s = spec::parse_experiment_file(entry.path());
        ASSERT_TRUE(s) << s.error().message << "\n" << s.error().hint << "\n" << s.error().trailer;
        auto p = plan::build_plan(*s, 1);
        ASSERT_TRUE(p) << entry.path() << ": " << p.error().message;
        EXPECT_FALSE(p->runs.empty()) << entry.path();
    }
    EXPECT_GE(count, 10);
}

TEST(SpecBundledTest, StudyShapes) {
    auto s3b =
        spec::parse_experiment_file(PGLAB_SOURCE_DIR "/experiments/s3b-vacuum-after-updates.toml");
    ASSERT_TRUE(s3b) << s3b.error().message;
    auto p = plan::build_plan(*s3b, 1);
    ASSERT_TRUE(p);
    // 2 servers x 2 ring sizes x (3 indexed cases + 1 without index)
    EXPECT_EQ(p->cells.size(), 16u);
    EXPECT_EQ(p->runs.size(), 48u);
    auto s5 = spec::parse_experiment_file(PGLAB_SOURCE_DIR "/experiments/s5-sync-methods.toml");
    ASSERT_TRUE(s5) << s5.error().message;
    EXPECT_EQ(plan::build_plan(*s5, 1)->cells.size(), 5u);
}

} // namespace
} // namespace pglab::lab
