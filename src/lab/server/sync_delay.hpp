// The sync-delay preload library (src/preload/sync_delay.c) seen from pglab: where it is, and its
// shared counters file (layout: preload/sync_counts.h), which pglab makes before a server starts.
#pragma once

#include "util/result.hpp"

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace pglab::lab::server {

/// The library's file name, as the build makes it next to the pglab executable.
inline constexpr const char* k_sync_delay_library_name = "libpglab-sync-delay.so";

/// The library: $PGLAB_SYNC_DELAY_LIBRARY when set, else next to the running executable, else in
/// `<executable's directory>/../lib/pglab/`, else where this build put it. Error naming the places
/// looked at when none has it.
Result<std::filesystem::path> find_sync_delay_library();

/// Creates (or truncates) the counters file at `path`: zeroed counters and `delay`, read by the
/// library at each call. Error when it cannot be written.
Status create_sync_counts_file(const std::filesystem::path& path, std::chrono::nanoseconds delay);

/// The environment of a server that runs with the library: LD_PRELOAD (the library first, then
/// `ld_preload` when not empty), the counters file and the delay in microseconds.
std::vector<std::pair<std::string, std::string>>
sync_delay_environment(const std::filesystem::path& library,
                       const std::filesystem::path& counts_file, std::chrono::nanoseconds delay,
                       const std::string& ld_preload);

/// Whether the process `pid` has the library mapped (/proc/<pid>/maps): the dynamic loader only
/// warns, and goes on without it, when it cannot read a preloaded library.
bool has_library_mapped(pid_t pid, const std::filesystem::path& library);

} // namespace pglab::lab::server
