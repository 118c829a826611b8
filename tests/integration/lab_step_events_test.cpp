// PGLAB_STEP_EVENTS: a line as each step of each run begins and ends, in order, for a program
// that drives `pglab run` from outside (bench/fault-campaign); a file that cannot be opened is a
// warning and the plan runs as without.
#include "support/files.hpp"

#include <regex>
#include <string>
#include <vector>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

class LabStepEvents : public support::LabTestDir {};

TEST_F(LabStepEvents, EachStepOfEachRunBeginsAndEndsInOrder) {
    const fs::path file = write("events.toml", R"toml(name = "step-events"
repeat = 2

[[steps]]
type = "sql"
sql = "SELECT 1"

[[steps]]
type = "sleep"
duration = "0.1s"
)toml");
    const fs::path events = m_dir / "events";
    auto environment = env();
    environment.emplace_back("PGLAB_STEP_EVENTS", events.string());
    const auto r = support::run_command(
        {support::pglab_binary(), "run", file.string(), "--results", (m_dir / "results").string()},
        environment);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    std::vector<std::string> seen;
    const std::regex line(R"(^(\d{13}) (begin|end) run=(\d) step=(\S+) type=(\S+)$)");
    long long last_ms = 0;
    for (const std::string& l : support::lines_of(read_file(events))) {
        std::smatch m;
        ASSERT_TRUE(std::regex_match(l, m, line)) << l;
        EXPECT_GE(std::stoll(m[1]), last_ms) << "the times go back: " << l;
        last_ms = std::stoll(m[1]);
        seen.push_back(m[2].str() + " " + m[3].str() + " " + m[4].str() + " " + m[5].str());
    }
    const std::vector<std::string> expected = {
        "begin 0 0:sql sql", "end 0 0:sql sql", "begin 0 1:sleep sleep", "end 0 1:sleep sleep",
        "begin 1 0:sql sql", "end 1 0:sql sql", "begin 1 1:sleep sleep", "end 1 1:sleep sleep"};
    EXPECT_EQ(seen, expected);
    expect_clean();
}

TEST_F(LabStepEvents, AFileThatCannotBeOpenedIsAWarning) {
    const fs::path file = write("events.toml", "name = \"no-events\"\n[[steps]]\ntype = \"sql\"\n"
                                               "sql = \"SELECT 1\"\n");
    auto environment = env();
    environment.emplace_back("PGLAB_STEP_EVENTS", "/nonexistent/dir/events");
    const auto r = support::run_command(
        {support::pglab_binary(), "run", file.string(), "--results", (m_dir / "results").string()},
        environment);
    EXPECT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_NE(r.err.find("pglab: warning: could not open PGLAB_STEP_EVENTS file "
                         "\"/nonexistent/dir/events\": No such file or directory"),
              std::string::npos)
        << r.err;
    expect_clean();
}

} // namespace
