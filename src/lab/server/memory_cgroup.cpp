// MemoryCgroup: finding the memory controller's hierarchy (/proc/self/mountinfo) and pglab's own
// cgroup in it (/proc/self/cgroup), then a child cgroup with a limit.
#include "lab/server/memory_cgroup.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>
#include <vector>

namespace pglab::lab::server {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_hint =
    "memory_limit needs root and a writable memory cgroup controller (cgroup v2 with \"memory\" "
    "in cgroup.controllers, or the v1 memory hierarchy); remove memory_limit to run without it";

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, sep)) {
        parts.push_back(part);
    }
    return parts;
}

/// A mounted cgroup hierarchy: where it is mounted and which of its paths the mount shows.
struct Mount {
    fs::path point;
    std::string root; ///< "/" unless only a sub-tree is mounted (a container)
};

/// The v2 mount, or the v1 mount whose super options name `memory`.
std::optional<Mount> find_mount(const fs::path& proc_root, MemoryCgroup::Version version) {
    std::ifstream in(proc_root / "self" / "mountinfo");
    std::string line;
    while (std::getline(in, line)) {
        // "36 25 0:31 / /sys/fs/cgroup/memory rw,... shared:14 - cgroup cgroup rw,memory"
        const size_t dash = line.find(" - ");
        if (dash == std::string::npos) {
            continue;
        }
        const std::vector<std::string> left = split(line.substr(0, dash), ' ');
        const std::vector<std::string> right = split(line.substr(dash + 3), ' ');
        if (left.size() < 5 || right.size() < 3) {
            continue;
        }
        bool match = false;
        if (version == MemoryCgroup::Version::v2) {
            match = right[0] == "cgroup2";
        } else if (right[0] == "cgroup") {
            for (const std::string& opt : split(right[2], ',')) {
                match = match || opt == "memory";
            }
        }
        if (match) {
            return Mount{left[4], left[3]};
        }
    }
    return std::nullopt;
}

/// Our own cgroup in that hierarchy, from /proc/self/cgroup ("0::/path" for v2,
/// "4:memory:/path" for v1), as a directory under the mount point.
std::optional<fs::path> own_cgroup_dir(const fs::path& proc_root, const Mount& mount,
                                       MemoryCgroup::Version version) {
    std::ifstream in(proc_root / "self" / "cgroup");
    std::string line;
    while (std::getline(in, line)) {
        const size_t a = line.find(':');
        const size_t b = a == std::string::npos ? a : line.find(':', a + 1);
        if (b == std::string::npos) {
            continue;
        }
        const std::string controllers = line.substr(a + 1, b - a - 1);
        bool match = version == MemoryCgroup::Version::v2
                         ? line.substr(0, a) == "0" && controllers.empty()
                         : false;
        if (version == MemoryCgroup::Version::v1) {
            for (const std::string& c : split(controllers, ',')) {
                match = match || c == "memory";
            }
        }
        if (!match) {
            continue;
        }
        std::string path = line.substr(b + 1);
        if (mount.root != "/" && path.rfind(mount.root, 0) == 0) {
            path = path.substr(mount.root.size());
        }
        return mount.point / fs::path(path).relative_path();
    }
    return std::nullopt;
}

bool read_word(const fs::path& file, std::string& word) {
    std::ifstream in(file);
    return static_cast<bool>(in >> word);
}

bool write_text(const fs::path& file, const std::string& text) {
    std::ofstream out(file);
    out << text;
    out.flush();
    return static_cast<bool>(out);
}

/// Where the child cgroups go, and which version: v2 when its memory controller is usable for
/// children of our cgroup, else v1.
struct Parent {
    fs::path dir;
    MemoryCgroup::Version version;
};

Result<Parent> find_parent(const fs::path& proc_root) {
    if (::geteuid() != 0) {
        return make_error(Error("memory_limit: pglab must run as root to give a server a memory "
                                "cgroup")
                              .with_hint(k_hint));
    }
    if (const auto v2 = find_mount(proc_root, MemoryCgroup::Version::v2)) {
        if (const auto dir = own_cgroup_dir(proc_root, *v2, MemoryCgroup::Version::v2)) {
            std::string controllers;
            std::ifstream in(*dir / "cgroup.controllers");
            std::getline(in, controllers);
            for (const std::string& c : split(controllers, ' ')) {
                if (c == "memory") {
                    return Parent{*dir, MemoryCgroup::Version::v2};
                }
            }
        }
    }
    if (const auto v1 = find_mount(proc_root, MemoryCgroup::Version::v1)) {
        if (const auto dir = own_cgroup_dir(proc_root, *v1, MemoryCgroup::Version::v1)) {
            return Parent{*dir, MemoryCgroup::Version::v1};
        }
    }
    return make_error(
        Error("memory_limit: no memory cgroup controller on this machine (neither cgroup v2 with "
              "the memory controller nor a v1 memory hierarchy is mounted)")
            .with_hint(k_hint));
}

} // namespace

Status MemoryCgroup::check_available(const fs::path& proc_root) {
    PGLAB_TRY_ASSIGN(const Parent parent, find_parent(proc_root));
    if (::access(parent.dir.c_str(), W_OK) != 0) {
        return make_error(Error(fmt::format("memory_limit: cannot create a cgroup in \"{}\": {}",
                                            parent.dir.string(), std::strerror(errno)))
                              .with_hint(k_hint));
    }
    return {};
}

Result<MemoryCgroup> MemoryCgroup::create(const std::string& name, std::uint64_t limit_bytes,
                                          const fs::path& proc_root) {
    PGLAB_TRY_ASSIGN(const Parent parent, find_parent(proc_root));
    MemoryCgroup cg;
    cg.version = parent.version;
    cg.dir = parent.dir / name;
    if (parent.version == Version::v2) {
        // Children get the memory controller only when the parent delegates it.
        std::string enabled;
        std::ifstream in(parent.dir / "cgroup.subtree_control");
        std::getline(in, enabled);
        if (enabled.find("memory") == std::string::npos
            && !write_text(parent.dir / "cgroup.subtree_control", "+memory")) {
            return make_error(
                Error(fmt::format("memory_limit: cannot enable the memory controller for the "
                                  "children of \"{}\" (a cgroup v2 with processes of its own "
                                  "cannot delegate it)",
                                  parent.dir.string()))
                    .with_hint(k_hint));
        }
    }
    std::error_code ec;
    if (!fs::create_directory(cg.dir, ec) || ec) {
        return make_error(
            Error(fmt::format("memory_limit: could not create cgroup \"{}\": {}", cg.dir.string(),
                              ec ? ec.message() : "it exists already"))
                .with_hint(k_hint));
    }
    const fs::path limit_file =
        cg.dir / (cg.version == Version::v1 ? "memory.limit_in_bytes" : "memory.max");
    std::string kept;
    if (!write_text(limit_file, std::to_string(limit_bytes)) || !read_word(limit_file, kept)) {
        const int err = errno;
        (void)cg.remove();
        return make_error(Error(fmt::format("memory_limit: could not set \"{}\": {}",
                                            limit_file.string(), std::strerror(err)))
                              .with_hint(k_hint));
    }
    cg.limit_bytes = std::strtoull(kept.c_str(), nullptr, 10);
    return cg;
}

Status MemoryCgroup::remove() const {
    if (dir.empty()) {
        return {};
    }
    if (::rmdir(dir.c_str()) != 0 && errno != ENOENT) {
        return make_error(
            fmt::format("could not remove cgroup \"{}\": {}", dir.string(), std::strerror(errno)));
    }
    return {};
}

} // namespace pglab::lab::server
