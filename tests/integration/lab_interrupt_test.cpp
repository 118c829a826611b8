// `pglab run` interrupted by SIGINT while a step waits for a long statement: the statement is
// cancelled, pglab ends within seconds with status 2, the runs finished before are kept and the
// interrupted one gets no line, and no cluster is left.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabInterrupt = support::LabTestDir;

// Run 0 is quick; run 1 sleeps 60 s in SQL.
constexpr const char* k_experiment = R"toml(name = "lab-interrupt"
repeat = 2

[[steps]]
type = "sql"
sql = "SELECT 1"

[[steps]]
type = "sql"
sql = "SELECT pg_sleep(60)"
when = "run == 1"
)toml";

TEST_F(LabInterrupt, SigintCancelsTheStatementAndKeepsFinishedRuns) {
    const fs::path file = write("interrupt.toml", k_experiment);
    const fs::path results = m_dir / "results";
    const fs::path err = m_dir / "stderr.txt";
    std::string bin = support::pglab_binary();
    std::vector<std::string> args = {bin, "run", file.string(), "--results", results.string()};
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    std::vector<std::string> env_store = {"TMPDIR=" + m_tmp.string(), "PATH=/usr/bin:/bin",
                                          "LC_ALL=C"};
    std::vector<char*> envp;
    for (auto& e : env_store) {
        envp.push_back(e.data());
    }
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), envp.data()), 0);
    posix_spawn_file_actions_destroy(&fa);

    // Wait for run 0's line, then for run 1 to be in its pg_sleep; SIGINT 2 s after the start.
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(30)) {
        auto c = pglab::lab::store::read_jsonl(results / "results.jsonl");
        if (c && !c->lines.empty()) {
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::this_thread::sleep_until(
        std::max(start + std::chrono::seconds(2),
                 std::chrono::steady_clock::now() + std::chrono::milliseconds(500)));
    const auto sent = std::chrono::steady_clock::now();
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    int status = 0;
    pid_t done = 0;
    while ((done = ::waitpid(pid, &status, WNOHANG)) == 0
           && std::chrono::steady_clock::now() - sent < std::chrono::seconds(10)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (done == 0) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        FAIL() << "pglab run did not end within 10 s of SIGINT";
    }
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
