#include "lab/run/step_events.hpp"

#include "util/clock.hpp"
#include "util/log.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace pglab::lab::run {

namespace {

/// The events file, opened once for the process (-1: none asked, or it could not be opened).
int events_fd() {
    static const int fd = [] {
        const char* path = std::getenv("PGLAB_STEP_EVENTS"); // NOLINT(concurrency-mt-unsafe)
        if (path == nullptr || *path == '\0') {
            return -1;
        }
        const int opened = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (opened < 0) {
            log::warning("could not open PGLAB_STEP_EVENTS file \"{}\": {}", path,
                         std::strerror(errno));
        }
        return opened;
    }();
    return fd;
}

} // namespace

void step_event(std::string_view what, std::size_t run, std::string_view key,
                std::string_view type) {
    const int fd = events_fd();
    if (fd < 0) {
        return;
    }
    const std::string line =
        fmt::format("{} {} run={} step={} type={}\n", wall_now_us() / 1000, what, run, key, type);
    // One write of a short line to an O_APPEND file: whole, never interleaved with another's.
    (void)!::write(fd, line.data(), line.size());
}

} // namespace pglab::lab::run
