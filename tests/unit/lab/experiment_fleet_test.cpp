// A bench step's fleet keys: processes (through mpirun) and hosts.
#include <gtest/gtest.h>

#include "experiment_test_util.hpp"

namespace pglab::lab::experiment {
namespace {

using namespace pglab::lab::experiment::testing;

TEST(SpecFleetTest, BenchStepReadsProcessesAndHosts) {
    const ExperimentSpec spec = parse_ok(R"(
[[steps]]
type = "bench"
processes = 3
hosts = ["client1", "client2"]

[[steps]]
type = "bench"
)");
    ASSERT_EQ(spec.steps.size(), 2u);
    EXPECT_EQ(spec.steps[0].processes, 3);
    EXPECT_EQ(spec.steps[0].hosts, (std::vector<std::string>{"client1", "client2"}));
    EXPECT_EQ(spec.steps[1].processes, 1);
    EXPECT_TRUE(spec.steps[1].hosts.empty());
}

TEST(SpecFleetTest, ProcessesMustBePositiveAndOnlyOnBench) {
    EXPECT_NE(problems("[[steps]]\ntype = \"bench\"\nprocesses = 0\n").find("processes"),
              std::string::npos);
    EXPECT_NE(problems("[[steps]]\ntype = \"sql\"\nsql = \"SELECT 1\"\nprocesses = 2\n")
                  .find("processes"),
              std::string::npos);
}

} // namespace
} // namespace pglab::lab::experiment
