#include "lab/run/crash_watch.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>
#include <thread>

namespace pglab::lab::run {

namespace {

namespace fs = std::filesystem;

/// What the postmaster logs when it restarts the server after a child's crash (every release
/// since 8.x; throwaway clusters log in English).
constexpr std::string_view k_reinitializing = "all server processes terminated; reinitializing";
/// The line before it that names the process that died, and how ("server process (PID 123)
/// was terminated by signal 9: Killed").
constexpr std::string_view k_terminated = "was terminated by signal";

/// The first line that tells of a crash-restart: a server process that died by a signal (the
/// postmaster then ends the others and reinitialises), or the restart itself; "" when none.
std::string crash_line(const fs::path& log, std::uintmax_t from) {
    std::ifstream in(log, std::ios::binary);
    if (!in) {
        return {};
    }
    in.seekg(static_cast<std::streamoff>(from));
    std::ostringstream rest;
    rest << in.rdbuf();
    const std::string text = rest.str();
    const std::size_t at = std::min(text.find(k_terminated), text.find(k_reinitializing));
    if (at == std::string::npos) {
        return {};
    }
    const std::size_t begin = text.rfind('\n', at);
    const std::size_t start = begin == std::string::npos ? 0 : begin + 1;
    return text.substr(start, text.find('\n', at) - start);
}

} // namespace

void CrashWatch::mark(const ServerSet& servers) {
    m_marks.clear();
    for (const auto& [name, state] : servers.all()) {
        if (!state.cluster) {
            continue;
        }
        std::error_code ec;
        const fs::path& log = state.cluster->log_path();
        const std::uintmax_t size = fs::file_size(log, ec);
        m_marks[name] = Mark{log, ec ? 0 : size};
    }
}

std::optional<Crash> CrashWatch::crashed(const ServerSet& servers,
                                         std::chrono::milliseconds wait) const {
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
        if (auto crash = crashed_now(servers)) {
            return crash;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            return std::nullopt;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::optional<Crash> CrashWatch::crashed_now(const ServerSet& servers) const {
    for (const auto& [name, state] : servers.all()) {
        if (!state.cluster) {
            continue;
        }
        const fs::path& log = state.cluster->log_path();
        const auto mark = m_marks.find(name);
        // A server made or given a new log during the step: its log is read from the start.
        std::error_code ec;
        const std::uintmax_t size = fs::file_size(log, ec);
        const bool same =
            mark != m_marks.end() && mark->second.log == log && !ec && mark->second.size <= size;
        Crash crash;
        crash.line = crash_line(log, same ? mark->second.size : 0);
        if (!crash.line.empty()) {
            crash.server = name;
            crash.log = log;
            return crash;
        }
    }
    return std::nullopt;
}

} // namespace pglab::lab::run
