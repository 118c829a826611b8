// /proc scanning for tests.
#include "support/processes.hpp"

#include "support/wait.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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

/// The command line of `pid`, its arguments separated by blanks; "" when the process ended
/// between the scan of /proc and this read (the read then fails with ESRCH, which a
/// std::ifstream would throw from).
std::string command_line(pid_t pid) {
    std::string line;
    const std::string path = "/proc/" + std::to_string(pid) + "/cmdline";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return line;
    }
    char buf[4096];
    for (ssize_t n = 0; (n = ::read(fd, buf, sizeof buf)) > 0;) {
        line.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    while (!line.empty() && line.back() == '\0') {
        line.pop_back();
    }
    std::replace(line.begin(), line.end(), '\0', ' ');
    return line;
}

std::vector<std::string> command_lines_in(const fs::path& dir) {
    std::vector<std::string> lines;
    for (const pid_t pid : processes_in(dir)) {
        if (std::string line = command_line(pid); !line.empty()) {
            lines.push_back(std::move(line));
        }
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
