// PostgreSQL from Debian's archive, for a major the npm release binaries do not publish (19 while
// it is a release candidate): its binary packages from sid or experimental, with the libraries
// they need, unpacked into pglab's cache and relocated there, so that they run on an older
// Debian. Debian builds them against a newer C library than the machine's; the relocation sets
// each program's ELF interpreter to the unpacked C library's loader and its run path to the
// unpacked libraries (patchelf), as the npm release packages are built to find ../lib. Nothing is
// installed on the system and no root file system is made: apt runs with a private state.
#pragma once

#include "lab/server/apt_sources.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace pglab::lab::server {

/// What to fetch, and where.
struct DebianFetchRequest {
    int major = 0;    ///< 19: the source package postgresql-19
    std::string spec; ///< what the user asked for ("19", "19rc1"): the version must match it
    DebianArchive archive;
    std::filesystem::path cache;   ///< the release cache (release_cache_dir())
    std::filesystem::path staging; ///< an empty directory inside `cache`, removed by the caller
    bool force = false;            ///< replace the version in the cache if it is there
    std::function<void(const std::string&)> progress; ///< one line of progress, no newline
};

/// What was fetched.
struct DebianFetched {
    std::filesystem::path dir;  ///< `<cache>/<PostgreSQL version>`, with `bin` in it
    std::string debian_version; ///< "19~rc1-1"
    std::string pg_version;     ///< "19rc1", as `postgres -V` prints it
    int packages = 0;           ///< packages unpacked
    std::uintmax_t download_bytes = 0;
    std::uintmax_t installed_bytes = 0;
    bool already = false; ///< it was in the cache and nothing was fetched
};

/// The suites postgresql-<major> is looked for in: sid first, then experimental (release
/// candidates go there).
inline constexpr const char* k_debian_suites[] = {"sid", "experimental"};

/// Fetches postgresql-<major>, postgresql-client-<major> and its libpq5 with their library
/// dependencies into `<cache>/<version>/root`, relocates its programs, and links
/// `<cache>/<version>/bin` to them. Needs apt-get, apt-cache, dpkg-deb and patchelf. Errors name
/// what is missing: a suite the archive does not serve, the package in none of the suites, a
/// library no suite has. On an error nothing is left in the cache but `staging`.
Result<DebianFetched> fetch_debian_release(const DebianFetchRequest& request);

} // namespace pglab::lab::server
