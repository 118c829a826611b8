// The lab's bench step with `processes = 3`: pglab runs it through mpirun on a throwaway server
// and stores one run whose bench record has the fleet's per-process section.
#include <gtest/gtest.h>

#include <filesystem>

#include "fleet/launcher.hpp"
#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

constexpr const char* k_fleet_experiment = R"(name = "fleet"

[scripts.one]
text = "SELECT 1;"

[[steps]]
type = "init"
options = ["--scale=1", "--quiet"]

[[steps]]
type = "bench"
processes = 3
scripts = ["one"]
options = ["--no-vacuum", "--transactions=10", "--client=4"]
)";

class LabFleet : public support::LabTestDir {};

TEST_F(LabFleet, ABenchStepWithProcessesRunsThroughMpirun) {
    if (!fs::exists("/usr/bin/mpirun")) {
        GTEST_SKIP() << "mpirun is not installed (Debian: openmpi-bin; scripts/bootstrap)";
    }
    if (!pglab::fleet::built_with_mpi()) {
        GTEST_SKIP() << "pglab was built without MPI (PGLAB_MPI, libopenmpi-dev)";
    }
    const fs::path file = write("fleet.toml", k_fleet_experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u);
    const nlohmann::json& step = ls[0]["steps"][1];
    ASSERT_EQ(step["status"], "ok") << step.dump();
    const nlohmann::json& bench = step["bench"];
    EXPECT_EQ(bench["totals"]["transactions"], 40) << bench.dump();
    const nlohmann::json& processes = bench["fleet"]["processes"];
    ASSERT_EQ(processes.size(), 3u);
    EXPECT_EQ(processes[0]["clients"], 2); // 4 clients dealt as pgbench deals them: 2, 1, 1
    EXPECT_EQ(processes[1]["clients"], 1);
    EXPECT_EQ(processes[2]["clients"], 1);
}

} // namespace
