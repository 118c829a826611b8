// /proc scanning for tests.
#include "support/processes.hpp"

#include <signal.h>

#include <cerrno>
#include <string>
#include <thread>

namespace support {

namespace fs = std::filesystem;

std::vector<pid_t> processes_in(const fs::path& dir) {
    std::vector<pid_t> pids;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        std::error_code link_ec;
        const std::string cwd = fs::read_symlink(entry.path() / "cwd", link_ec).string();
        if (!link_ec && cwd.rfind(dir.string(), 0) == 0) {
            pids.push_back(static_cast<pid_t>(std::stol(name)));
        }
    }
    return pids;
}

namespace {

template <class Done>
bool wait_for(std::chrono::milliseconds timeout, Done done) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

} // namespace

bool wait_no_process_in(const fs::path& dir, std::chrono::milliseconds timeout) {
    return wait_for(timeout, [&dir] { return processes_in(dir).empty(); });
}

bool wait_pid_gone(pid_t pid, std::chrono::milliseconds timeout) {
    return wait_for(timeout, [pid] { return ::kill(pid, 0) != 0 && errno == ESRCH; });
}

} // namespace support
