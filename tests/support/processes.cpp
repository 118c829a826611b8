// /proc scanning for tests.
#include "support/processes.hpp"

#include "support/wait.hpp"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <iterator>
#include <string>

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

std::vector<std::string> command_lines_in(const fs::path& dir) {
    std::vector<std::string> lines;
    for (const pid_t pid : processes_in(dir)) {
        std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
        std::string line((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        while (!line.empty() && line.back() == '\0') {
            line.pop_back();
        }
        std::replace(line.begin(), line.end(), '\0', ' ');
        lines.push_back(std::move(line));
    }
    return lines;
}

bool wait_no_process_in(const fs::path& dir, std::chrono::milliseconds timeout) {
    return wait_until([&dir] { return processes_in(dir).empty(); }, timeout);
}

bool wait_pid_gone(pid_t pid, std::chrono::milliseconds timeout) {
    return wait_until([pid] { return ::kill(pid, 0) != 0 && errno == ESRCH; }, timeout);
}

} // namespace support
