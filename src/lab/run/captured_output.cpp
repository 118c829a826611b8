// lab/run: stdout and stderr into a step's log.
#include "lab/run/captured_output.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace pglab::lab::run {

CaptureOutput::CaptureOutput(const std::filesystem::path& path) {
    std::fflush(stdout);
    std::fflush(stderr);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        return;
    }
    m_out = ::dup(1);
    m_err = ::dup(2);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::close(fd);
}

CaptureOutput::~CaptureOutput() {
    std::fflush(stdout);
    std::fflush(stderr);
    if (m_out >= 0) {
        ::dup2(m_out, 1);
        ::close(m_out);
    }
    if (m_err >= 0) {
        ::dup2(m_err, 2);
        ::close(m_err);
    }
}

} // namespace pglab::lab::run
