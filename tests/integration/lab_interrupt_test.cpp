// `pglab run` interrupted by SIGINT while a step waits for a long statement: the statement is
// cancelled, pglab ends within seconds with status 2, the runs finished before are kept and the
// interrupted one gets no line, and no cluster is left.
#include "support/background.hpp"
#include "support/processes.hpp"
#include "support/wait.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabInterrupt = support::LabTestDir;

// Run 0 is quick; run 1 sleeps 600 s in SQL, in a DO block: a backend whose process title says
// "DO" is in that sleep (pglab's own statements are never DO).
constexpr const char* k_experiment = R"toml(name = "lab-interrupt"
repeat = 2

[[steps]]
type = "sql"
sql = "SELECT 1"

[[steps]]
type = "sql"
sql = "DO $$ BEGIN PERFORM pg_sleep(600); END $$"
when = "run == 1"
)toml";

TEST_F(LabInterrupt, SigintCancelsTheStatementAndKeepsFinishedRuns) {
    const fs::path file = write("interrupt.toml", k_experiment);
    const fs::path results = m_dir / "results";
    const fs::path err = m_dir / "stderr.txt";
    support::Background pglab(
        {support::pglab_binary(), "run", file.string(), "--results", results.string()}, m_tmp, err);
    ASSERT_GT(pglab.pid(), 0);
    const pid_t pid = pglab.pid();

    // SIGINT once run 1 is in its sleep.
    const bool sleeping = support::wait_until([&] {
        const auto titles = support::command_lines_in(m_tmp);
        return std::any_of(titles.begin(), titles.end(), [](const std::string& t) {
            return t.size() > 3 && t.compare(t.size() - 3, 3, " DO") == 0;
        });
    });
    EXPECT_TRUE(sleeping) << "run 1 never reached its pg_sleep";
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    // The statement has most of 600 s to go: ending before that is the cancel obeyed.
    const int status = pglab.wait();
    ASSERT_NE(status, -1) << "pglab run did not end after SIGINT";
    const std::string err_text = read_file(err);
    ASSERT_TRUE(WIFEXITED(status)) << err_text;
    EXPECT_EQ(WEXITSTATUS(status), 2) << err_text;
    EXPECT_NE(err_text.find("--resume"), std::string::npos) << err_text;

    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u);
    EXPECT_EQ(ls[0]["run"], 0);
    EXPECT_EQ(ls[0]["status"], "ok");
    expect_clean();
}

} // namespace
