// `pglab run --resume` of a directory made before the default order became "paired" (a file
// with a ratio claim and no `order`, run as written then): it resumes in the order recorded in
// its plan.json instead of refusing it as a changed plan.
#include <fmt/format.h>

#include <fstream>
#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabResumeOrder = support::LabTestDir;

std::string without_line(const std::string& text, const std::string& line) {
    std::string out = text;
    const std::size_t at = out.find(line + "\n");
    if (at != std::string::npos) {
        out.erase(at, line.size() + 1);
    }
    return out;
}

TEST_F(LabResumeOrder, ADirectoryOfTheOldDefaultOrderResumesInIt) {
    const std::string order_line = "order = \"as-written\"";
    const std::string text = fmt::format(R"toml(name = "resume-order"
repeat = 2
{}

[matrix]
params.x = [1, 2]

[[steps]]
type = "timed-sql"
name = "q"
sql = "SELECT ${{params.x}}"

[[claims]]
text = "x does not matter"
step = "q"
metric = "client_ms"
ratio = ["params.x=2", "params.x=1"]
paper = 1.0
tolerance = 0.5
)toml",
                                         order_line);
    const fs::path file = write("resume-order.toml", text);
    const fs::path results = m_dir / "results";
    const auto first = run_experiment(file, results);
    ASSERT_EQ(first.exit_code, 0) << support::describe(first);
    ASSERT_NE(read_file(results / "plan.json").find("\"order\": \"as-written\""),
              std::string::npos);

    // The file as it read before `order` was written in it: the default is now "paired".
    const std::string old_text = without_line(text, order_line);
    ASSERT_NE(old_text, text);
    std::ofstream(file) << old_text;
    std::ofstream(results / "experiment.toml") << old_text;
    const auto dry =
        support::run_command({support::pglab_binary(), "run", "--dry-run", file.string()});
    ASSERT_NE(dry.out.find("order paired"), std::string::npos) << support::describe(dry);

    const auto resumed =
        support::run_command({support::pglab_binary(), "run", "--resume", results.string()}, env());
    EXPECT_EQ(resumed.exit_code, 0) << support::describe(resumed);
    EXPECT_EQ(resumed.err.find("no longer gives the plan"), std::string::npos) << resumed.err;
    EXPECT_EQ(lines(results).size(), 4U);
    expect_clean();
}

} // namespace
