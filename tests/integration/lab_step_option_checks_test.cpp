// The checks of a step's options before any server starts (issue 62, stage 1). A step option
// that sets what a matrix variable sets (-t against `duration`, -c against
// `clients`, -D against `vars.NAME`, -s against `scale`) is refused before any server starts, by
// the run and by --dry-run, at the option's file:line:column, naming the variable and where it
// is; without the variable the option is the step's to set (issue 62: `-t 100` beside `duration`
// made every bench run 100 transactions while progress and the report said 10 s).
#include <fmt/format.h>

#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabStepOptionChecks = support::LabTestDir;

std::string experiment(const std::string& matrix, const std::string& step) {
    return fmt::format(R"toml(name = "replaced"

[matrix]
{}

[[steps]]
{}
)toml",
                       matrix, step);
}

TEST_F(LabStepOptionChecks, AnOptionThatReplacesAMatrixValueIsRefusedAtItsPlace) {
    struct Case {
        std::string matrix;
        std::string step;
        std::string said;
    };

    const Case cases[] = {
        {"duration = [10]", "type = \"bench\"\nname = \"b\"\noptions = [\"-n\", \"-t\", \"100\"]",
         ":9:18: bench step \"b\": its option \"-t\" replaces the matrix's duration "
         "({file}:4:1) (pgbench takes one of -t and -T): every cell would run alike under "
         "different labels"},
        {"clients = [1, 4]\nduration = 1",
         "type = \"bench\"\nname = \"b\"\noptions = [\"--client=8\"]",
         ":10:12: bench step \"b\": its option \"--client=8\" replaces the matrix's clients "
         "({file}:4:1): every cell"},
        {"vars.delay = [1, 2]\nduration = 1",
         "type = \"bench\"\nname = \"b\"\noptions = [\"-D\", \"delay=5\"]",
         ":10:12: bench step \"b\": its option \"-D\" replaces the matrix's vars.delay "
         "({file}:4:6): every cell"},
        {"scale = [1, 2]", "type = \"init\"\nname = \"i\"\noptions = [\"-s10\"]",
         ":9:12: init step \"i\": its option \"-s10\" replaces the matrix's scale ({file}:4:1)"},
    };
    int n = 0;
    for (const Case& c : cases) {
        const fs::path file =
            write(fmt::format("replaced-{}.toml", ++n), experiment(c.matrix, c.step));
        std::string said = c.said;
        said.replace(said.find("{file}"), 6, file.string());
        for (const bool dry : {true, false}) {
            SCOPED_TRACE(file.string() + (dry ? " --dry-run" : " run"));
            std::vector<std::string> args = {support::pglab_binary(), "run", file.string(),
                                             "--results", (m_dir / "results").string()};
            if (dry) {
                args.emplace_back("--dry-run");
            }
            const auto r = support::run_command(args, env());
            EXPECT_EQ(r.exit_code, 1) << support::describe(r);
            EXPECT_NE(r.err.find(file.string() + said), std::string::npos) << r.err;
            EXPECT_NE(r.err.find("Remove \""), std::string::npos) << r.err;
            EXPECT_FALSE(fs::exists(m_dir / "results"));
        }
    }
}

TEST_F(LabStepOptionChecks, WithoutTheVariableTheOptionIsTheSteps) {
    const fs::path file =
        write("own.toml",
              experiment("clients = [1, 2]", "type = \"bench\"\noptions = [\"-t\", \"100\"]"));
    const auto r =
        support::run_command({support::pglab_binary(), "run", "--dry-run", file.string()}, env());
    EXPECT_EQ(r.exit_code, 0) << support::describe(r);
}

// The option parser stops at its first complaint; the check reads the options again without
// each option it named, so that a file with three bad options is fixed in one go.
TEST_F(LabStepOptionChecks, EveryBadOptionOfAStepIsReportedAtOnce) {
    const fs::path file = write(
        "bad.toml", experiment("clients = 1",
                               "type = \"bench\"\nname = \"b\"\noptions = [\"--rate=abc\", \"-n\", "
                               "\"--latency-limit\", \"x\", \"-M\", \"quick\"]"));
    const auto r =
        support::run_command({support::pglab_binary(), "run", "--dry-run", file.string()}, env());
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    for (const std::string said : {":9:12: bench step \"b\": invalid rate limit: \"abc\"",
                                   ":9:32: bench step \"b\": invalid latency limit: \"x\"",
                                   ":9:56: bench step \"b\": invalid query mode (-M): \"quick\""}) {
        EXPECT_NE(r.err.find(file.string() + said), std::string::npos) << said << "\n" << r.err;
    }
}

} // namespace
