// A memory cgroup of its own for one server, so that its memory, page cache included, is bounded:
// cgroup v2 where its memory controller is available, else the v1 memory controller. Root only.
// The cgroup sits below pglab's own (limits set on pglab still apply). Does not start anything.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <string>

namespace pglab::lab::server {

/// One memory cgroup directory, made by `create` and removed by `remove` (once its processes
/// have exited). A plain value: copying it does not copy the cgroup.
struct MemoryCgroup {
    enum class Version : std::uint8_t { v1, v2 };

    std::filesystem::path dir; ///< /sys/fs/cgroup/memory/.../pglab-XXXXXX (v1) or the v2 one
    Version version = Version::v1;
    std::uint64_t limit_bytes = 0; ///< as the kernel kept it (rounded down to whole pages)

    /// The file a process writes "0" to in order to join: `cgroup.procs`.
    std::filesystem::path procs_file() const { return dir / "cgroup.procs"; }

    /// Makes the cgroup `name` (a single path component) below pglab's own and sets its limit
    /// to `limit_bytes`. Error, saying why and what would make it work, when not root, when no
    /// memory controller is mounted (v2 with memory, else v1), or when the directory or the
    /// limit cannot be written. `proc_root` is for tests.
    static Result<MemoryCgroup> create(const std::string& name, std::uint64_t limit_bytes,
                                       const std::filesystem::path& proc_root = "/proc");

    /// Whether `create` could work here (root, a memory controller, a writable directory),
    /// without making anything; the error is create's.
    static Status check_available(const std::filesystem::path& proc_root = "/proc");

    /// Removes the directory (rmdir). Error when processes remain in it.
    Status remove() const;
};

} // namespace pglab::lab::server
