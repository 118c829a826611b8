// tests/unit/lab: every ```toml example of docs/experiments.md is a valid experiment file, so
// the documentation cannot drift from the parser.
#include "lab/experiment/parse_experiment.hpp"
#include "lab/plan/plan.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace pglab::lab {
namespace {

TEST(SpecDocsTest, EveryTomlExampleParsesAndPlans) {
    std::ifstream in(PGLAB_SOURCE_DIR "/docs/experiments.md");
    ASSERT_TRUE(in.is_open());
    std::string line;
    std::string block;
    bool inside = false;
    int line_no = 0;
    int start = 0;
    int examples = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (!inside && line == "```toml") {
            inside = true;
            block.clear();
            start = line_no;
            continue;
        }
        if (inside && line == "```") {
            inside = false;
            ++examples;
            const std::string name = "experiments.md:" + std::to_string(start);
            auto s = experiment::parse_experiment(block, name, PGLAB_SOURCE_DIR "/experiments");
            ASSERT_TRUE(s) << s.error().message << "\n" << s.error().trailer;
            auto p = plan::build_plan(*s, 1);
            EXPECT_TRUE(p) << name << ": " << p.error().message;
            continue;
        }
        if (inside) {
            block += line + "\n";
        }
    }
    EXPECT_FALSE(inside);
    EXPECT_GE(examples, 18);
}

} // namespace
} // namespace pglab::lab
