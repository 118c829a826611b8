// Terminal password prompt (simple_prompt with echo off): /dev/tty when available, otherwise
// stdin and stderr.
#include "pg/password_prompt.hpp"

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

namespace pglab::pg {

namespace {

void write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n <= 0) {
            return;
        }
        text.remove_prefix(static_cast<size_t>(n));
    }
}

std::string read_line(int fd) {
    std::string line;
    char c = 0;
    while (::read(fd, &c, 1) == 1 && c != '\n') {
        line += c;
    }
    if (!line.empty() && line.back() == '\r') {
        line.pop_back();
    }
    return line;
}

} // namespace

std::string prompt_password(std::string_view prompt) {
    int in_fd = ::open("/dev/tty", O_RDWR | O_CLOEXEC);
    int out_fd = in_fd;
    const bool own_tty = in_fd >= 0;
    if (!own_tty) {
        in_fd = STDIN_FILENO;
        out_fd = STDERR_FILENO;
    }
    write_all(out_fd, prompt);

    termios saved{};
    const bool is_tty = ::tcgetattr(in_fd, &saved) == 0;
    if (is_tty) {
        termios quiet = saved;
        quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
        ::tcsetattr(in_fd, TCSAFLUSH, &quiet);
    }
    std::string password = read_line(in_fd);
    if (is_tty) {
        ::tcsetattr(in_fd, TCSAFLUSH, &saved);
        write_all(out_fd, "\n");
    }
    if (own_tty) {
        ::close(in_fd);
    }
    return password;
}

} // namespace pglab::pg
