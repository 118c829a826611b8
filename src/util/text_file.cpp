#include "util/text_file.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace pglab::util {

Result<std::string> read_text_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return make_error(
            fmt::format("could not open file \"{}\": {}", path.string(), std::strerror(errno)));
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

Status write_file_atomically(const std::filesystem::path& path, std::string_view text) {
    const std::filesystem::path tmp =
        path.parent_path() / fmt::format(".{}.tmp-{}", path.filename().string(), ::getpid());
    const auto failed = [&](const char* what, int err) -> Status {
        ::unlink(tmp.c_str());
        return make_error(
            fmt::format("could not {} file \"{}\": {}", what, path.string(), std::strerror(err)));
    };
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return make_error(
            fmt::format("could not create file \"{}\": {}", tmp.string(), std::strerror(errno)));
    }
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            const int err = n < 0 ? errno : EIO;
            ::close(fd);
            return failed("write", err);
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    if (::fsync(fd) != 0) {
        const int err = errno;
        ::close(fd);
        return failed("write", err);
    }
    if (::close(fd) != 0) {
        return failed("write", errno);
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        return failed("replace", errno);
    }
    return {};
}

} // namespace pglab::util
