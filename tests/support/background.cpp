// A program started in the background by a test.
#include "support/background.hpp"

#include "support/wait.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

namespace support {

Background::Background(const std::vector<std::string>& args, const std::filesystem::path& tmpdir,
                       const std::filesystem::path& err, const std::vector<std::string>& env) {
    std::vector<std::string> all = args;
    std::vector<char*> argv;
    for (auto& a : all) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    std::vector<std::string> env_store = {"TMPDIR=" + tmpdir.string(), "PATH=/usr/bin:/bin",
                                          "LC_ALL=C"};
    env_store.insert(env_store.end(), env.begin(), env.end());
    std::vector<char*> envp;
    for (auto& e : env_store) {
        envp.push_back(e.data());
    }
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (posix_spawn(&m_pid, argv[0], &fa, nullptr, argv.data(), envp.data()) != 0) {
        m_pid = 0;
    }
    posix_spawn_file_actions_destroy(&fa);
}

Background::~Background() {
    if (m_pid > 0) {
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
    }
}

int Background::wait() {
    int status = 0;
    if (!wait_until([&] { return ::waitpid(m_pid, &status, WNOHANG) == m_pid; })) {
        return -1;
    }
    m_pid = 0;
    return status;
}

} // namespace support
