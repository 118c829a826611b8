// The sync-delay library's location, its counters file and the server environment it needs.
#include "lab/server/sync_delay.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

#include "preload/sync_counts.h"

namespace pglab::lab::server {

namespace fs = std::filesystem;

Result<fs::path> find_sync_delay_library() {
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("PGLAB_SYNC_DELAY_LIBRARY"); env != nullptr && *env != 0) {
        candidates.emplace_back(env);
    } else {
        std::error_code ec;
        const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
        if (!ec) {
            candidates.push_back(exe.parent_path() / k_sync_delay_library_name);
            candidates.push_back(exe.parent_path().parent_path() / "lib" / "pglab"
                                 / k_sync_delay_library_name);
        }
#ifdef PGLAB_SYNC_DELAY_BUILD_PATH
        candidates.emplace_back(PGLAB_SYNC_DELAY_BUILD_PATH);
#endif
    }
    std::string looked;
    for (const fs::path& c : candidates) {
        std::error_code ec;
        if (fs::is_regular_file(c, ec)) {
            return fs::absolute(c, ec);
        }
        looked += (looked.empty() ? "\"" : ", \"") + c.string() + "\"";
    }
    return make_error(
        Error(fmt::format("sync_delay: the preload library {} was not found (looked at {})",
                          k_sync_delay_library_name, looked))
            .with_hint("build it with the pglab target (cmake --build build), or set "
                       "PGLAB_SYNC_DELAY_LIBRARY to its path"));
}

Status create_sync_counts_file(const fs::path& path, std::chrono::nanoseconds delay) {
    auto file = std::make_unique<pglab_sync_file>();
    std::memset(file.get(), 0, sizeof(pglab_sync_file));
    file->magic = PGLAB_SYNC_MAGIC;
    file->version = PGLAB_SYNC_VERSION;
    file->slots = PGLAB_SYNC_SLOTS;
    file->delay_ns = delay.count();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(file.get()), sizeof(pglab_sync_file));
    out.close();
    if (!out) {
        return make_error(fmt::format("could not write \"{}\"", path.string()));
    }
    return {};
}

std::vector<std::pair<std::string, std::string>>
sync_delay_environment(const fs::path& library, const fs::path& counts_file,
                       std::chrono::nanoseconds delay, const std::string& ld_preload) {
    return {
        {"LD_PRELOAD", ld_preload.empty() ? library.string() : library.string() + ":" + ld_preload},
        {PGLAB_SYNC_ENV_FILE, counts_file.string()},
        {PGLAB_SYNC_ENV_DELAY_US,
         std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(delay).count())},
    };
}

bool has_library_mapped(pid_t pid, const fs::path& library) {
    std::ifstream maps(fmt::format("/proc/{}/maps", pid));
    std::string line;
    const std::string name = library.filename().string();
    while (std::getline(maps, line)) {
        if (line.size() >= name.size()
            && line.compare(line.size() - name.size(), name.size(), name) == 0) {
            return true;
        }
    }
    return false;
}

} // namespace pglab::lab::server
