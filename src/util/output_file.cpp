#include "util/output_file.hpp"

#include "util/sigpipe_guard.hpp"
#include "util/unique_fd.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

namespace pglab::util {

namespace {

namespace fs = std::filesystem;

/// Links followed before giving up, as the kernel does (ELOOP).
constexpr int k_max_links = 40;

Unexpected cannot_write(const fs::path& given, std::string_view why) {
    return make_error(fmt::format("cannot write {}: {}", given.string(), why));
}

Unexpected could_not(std::string_view what, const fs::path& path, int err) {
    return make_error(
        fmt::format("could not {} file \"{}\": {}", what, path.string(), std::strerror(err)));
}

/// The path a symbolic link `link` names, relative names taken from the link's directory.
Result<fs::path> link_target(const fs::path& link) {
    std::array<char, 4096> buf{};
    const ssize_t n = ::readlink(link.c_str(), buf.data(), buf.size());
    if (n < 0 || static_cast<std::size_t>(n) == buf.size()) {
        return make_error(fmt::format("could not read link \"{}\": {}", link.string(),
                                      std::strerror(n < 0 ? errno : ENAMETOOLONG)));
    }
    const fs::path target(std::string(buf.data(), static_cast<std::size_t>(n)));
    return target.is_absolute() ? target : link.parent_path() / target;
}

/// The directory a file is made in (by name or as the temporary that replaces it).
fs::path directory_of(const fs::path& path) {
    return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

/// Whether a file can be made beside `path`: its directory exists and lets us.
Status directory_writable(const fs::path& given, const fs::path& path) {
    const fs::path dir = directory_of(path);

    struct stat st {};

    if (::stat(dir.c_str(), &st) != 0) {
        return errno == ENOENT
                   ? cannot_write(given, "its directory does not exist")
                   : cannot_write(given, fmt::format("{}: {}", dir.string(), std::strerror(errno)));
    }
    if (!S_ISDIR(st.st_mode)) {
        return cannot_write(given, fmt::format("{} is not a directory", dir.string()));
    }
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
        return cannot_write(given, fmt::format("{}: {}", dir.string(), std::strerror(errno)));
    }
    return {};
}

/// Connects to a unix socket: its reader gets the bytes, as `socat` would pass them.
int connect_socket(const fs::path& path) {
    sockaddr_un addr{};
    if (path.native().size() >= sizeof(addr.sun_path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.native().size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
        const int err = errno;
        ::close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

/// Opens what is not a regular file where it stands: never created, truncated or replaced.
int open_in_place(const fs::path& path) {
    struct stat st {};

    if (::stat(path.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) {
        return connect_socket(path);
    }
    return ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
}

/// 0, or the errno of the write that failed.
int write_all(int fd, std::string_view text) {
    const SigpipeGuard guard; // a reader that left is EPIPE, not the end of pglab
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return n < 0 ? errno : EIO;
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

Status write_in_place(const OutputTarget& target, std::string_view text) {
    UniqueFd fd(open_in_place(target.path));
    if (fd.get() < 0) {
        return could_not("open", target.path, errno);
    }
    if (const int err = write_all(fd.get(), text); err != 0) {
        return could_not("write", target.path, err);
    }
    // A pipe, socket or character device has nothing to flush (fsync says EINVAL); a block
    // device has.
    if (::fsync(fd.get()) != 0 && errno != EINVAL && errno != EROFS) {
        return could_not("write", target.path, errno);
    }
    if (const int err = fd.close(); err != 0) {
        return could_not("write", target.path, err);
    }
    return {};
}

Status replace_whole(const OutputTarget& target, std::string_view text) {
    const fs::path dir = directory_of(target.path);
    std::string name = (dir / fmt::format(".{}.XXXXXX", target.path.filename().string())).string();
    UniqueFd fd(::mkostemp(name.data(), O_CLOEXEC));
    if (fd.get() < 0) {
        return could_not("create a temporary", name, errno);
    }
    const fs::path tmp(name);
    const auto failed = [&](const char* what, int err) -> Status {
        fd.close();
        ::unlink(tmp.c_str()); // ours: made by mkostemp above
        return could_not(what, target.path, err);
    };
    if (::fchmod(fd.get(), target.mode) != 0) {
        return failed("write", errno);
    }
    if (target.kind == OutputTarget::Kind::regular && ::geteuid() == 0) {
        // Root rewriting a user's file leaves it theirs. Best effort: some file systems refuse.
        (void)::fchown(fd.get(), target.owner, target.group);
    }
    if (const int err = write_all(fd.get(), text); err != 0) {
        return failed("write", err);
    }
    if (::fsync(fd.get()) != 0) {
        return failed("write", errno);
    }
    if (const int err = fd.close(); err != 0) {
        return failed("write", err);
    }
    if (::rename(tmp.c_str(), target.path.c_str()) != 0) {
        return failed("replace", errno);
    }
    fsync_directory(dir);
    return {};
}

} // namespace

Result<OutputTarget> inspect_output(const fs::path& given) {
    OutputTarget target;
    target.path = given;
    for (int links = 0;; ++links) {
        struct stat st {};

        if (::lstat(target.path.c_str(), &st) != 0) {
            const int err = errno;
            if (err == ENOENT || err == ENOTDIR) {
                PGLAB_TRY(directory_writable(given, target.path));
                target.kind = OutputTarget::Kind::new_file;
                return target;
            }
            return cannot_write(given, std::strerror(err));
        }
        if (S_ISLNK(st.st_mode)) {
            if (links == k_max_links) {
                return cannot_write(given, std::strerror(ELOOP));
            }
            PGLAB_TRY_ASSIGN(target.path, link_target(target.path));
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            return cannot_write(given, "it is a directory");
        }
        // What a shell's `>` would refuse is refused (a read-only file, a read-only device),
        // and a regular file is replaced in its directory, which must let us.
        if (::access(target.path.c_str(), W_OK) != 0) {
            return cannot_write(given, std::strerror(errno));
        }
        if (!S_ISREG(st.st_mode)) {
            target.kind = OutputTarget::Kind::in_place;
            return target;
        }
        target.kind = OutputTarget::Kind::regular;
        target.mode = st.st_mode & 07777;
        target.owner = st.st_uid;
        target.group = st.st_gid;
        PGLAB_TRY(directory_writable(given, target.path));
        return target;
    }
}

Status write_output_file(const fs::path& path, std::string_view text) {
    PGLAB_TRY_ASSIGN(const OutputTarget target, inspect_output(path));
    if (target.kind == OutputTarget::Kind::in_place) {
        return write_in_place(target, text);
    }
    return replace_whole(target, text);
}

void fsync_directory(const fs::path& dir) {
    const UniqueFd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() >= 0) {
        ::fsync(fd.get());
    }
}

int open_output_stream(const fs::path& path) {
    struct stat st {};

    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        return open_in_place(path);
    }
    // open(2) follows a link itself; a directory gives EISDIR and a missing one ENOENT.
    return ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
}

} // namespace pglab::util
