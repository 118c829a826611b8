// Diagnostic output. Writes whole lines with one write(2) so concurrent threads never interleave.
#include "util/log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

namespace pglab::log {

namespace {

std::string g_program_name = "pglab";
std::string g_program_path = "pglab";
std::atomic<bool> g_debug{false};
std::atomic<int> g_copy_fd{-1}; ///< CopyToFile's file, -1 when none

void write_all(int fd, std::string_view line) {
    const char* p = line.data();
    size_t left = line.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n <= 0) {
            return;
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
}

void write_stderr(std::string_view line) {
    write_all(STDERR_FILENO, line);
    if (const int fd = g_copy_fd.load(std::memory_order_relaxed); fd >= 0) {
        write_all(fd, line);
    }
}

} // namespace

CopyToFile::CopyToFile(const std::string& path) {
    m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (m_fd < 0) {
        write(Level::warning, fmt::format("could not open \"{}\": {}", path, std::strerror(errno)));
        return;
    }
    g_copy_fd.store(m_fd);
}

CopyToFile::~CopyToFile() {
    if (m_fd >= 0) {
        g_copy_fd.store(-1);
        ::close(m_fd);
    }
}

void set_program_name(std::string_view name) {
    g_program_name = std::string(name);
}

const std::string& program_name() {
    return g_program_name;
}

void set_program_path(std::string_view path) {
    g_program_path = std::string(path);
}

const std::string& program_path() {
    return g_program_path;
}

void set_debug(bool enabled) {
    g_debug.store(enabled, std::memory_order_relaxed);
}

bool debug_enabled() {
    return g_debug.load(std::memory_order_relaxed);
}

void write(Level level, std::string_view text) {
    std::string line = g_program_name;
    switch (level) {
    case Level::error:
        line += ": error: ";
        break;
    case Level::warning:
        line += ": warning: ";
        break;
    case Level::info:
    case Level::debug:
        line += ": ";
        break;
    }
    line += text;
    line += '\n';
    write_stderr(line);
}

void detail(std::string_view text) {
    write_stderr(g_program_name + ": detail: " + std::string(text) + "\n");
}

void hint(std::string_view text) {
    write_stderr(g_program_name + ": hint: " + std::string(text) + "\n");
}

void print(const Error& e) {
    write(Level::error, e.message);
    if (!e.detail.empty()) {
        detail(e.detail);
    }
    if (!e.hint.empty()) {
        hint(e.hint);
    }
    if (!e.trailer.empty()) {
        write_stderr(e.trailer);
    }
}

} // namespace pglab::log
