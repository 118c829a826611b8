// util: a file descriptor closed when its owner goes (the one such type of the project).
#pragma once

#include <unistd.h>

#include <cerrno>
#include <utility>

namespace pglab::util {

class UniqueFd {
public:
    UniqueFd() = default;

    explicit UniqueFd(int fd) : m_fd(fd) {}

    UniqueFd(UniqueFd&& o) noexcept : m_fd(std::exchange(o.m_fd, -1)) {}

    UniqueFd& operator=(UniqueFd&& o) noexcept {
        if (this != &o) {
            reset();
            m_fd = std::exchange(o.m_fd, -1);
        }
        return *this;
    }

    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;

    ~UniqueFd() { reset(); }

    int get() const { return m_fd; }

    /// Closes now, if open; async-signal-safe (a forked child uses it).
    void reset() { (void)close(); }

    /// Closes now; the error of close(2) (NFS reports a failed write there), or 0.
    int close() {
        const int fd = std::exchange(m_fd, -1);
        return fd >= 0 && ::close(fd) != 0 ? errno : 0;
    }

private:
    int m_fd = -1;
};

} // namespace pglab::util
