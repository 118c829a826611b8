// Where a PostgreSQL installation lives: its bin directory and version. Finds the newest one under
// /usr/lib/postgresql, one of a given major version, or checks a directory the user names.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace pglab::lab::server {

/// A PostgreSQL installation's bin directory with initdb and postgres in it.
struct Installation {
    std::filesystem::path bin_dir;
    std::string version; ///< as `postgres -V` prints it: "15.10", "17.2", "18beta1"
    int major = 0;       ///< 15, 17...; for 9.x the first number
    /// Where it was found: "system" (/usr/lib/postgresql), "PGLAB_POSTGRES_PATH", "cache"
    /// (release binaries of `pglab server fetch`), "build" (`pglab server build`, under its key),
    /// or empty when named by its directory.
    std::string origin;

    /// `bin_dir/name`, whether or not it exists.
    std::filesystem::path tool(const std::string& name) const { return bin_dir / name; }

    /// A client program (psql, pg_isready...) to use with this server: the one in `bin_dir`, else
    /// the newest in /usr/lib/postgresql/*/bin, else the bare name (found in PATH). Release
    /// bundles with only initdb, pg_ctl and postgres take the installed client tools this way.
    std::filesystem::path client_tool(const std::string& name) const;
};

/// The directory Debian installs versions under; each has a `<major>/bin`.
inline constexpr const char* k_debian_install_root = "/usr/lib/postgresql";

/// The newest /usr/lib/postgresql/<major>/bin holding initdb. Error when there is none.
Result<Installation> find_newest_installation();

/// /usr/lib/postgresql/<major>/bin. Error when it is not installed.
Result<Installation> find_installation(int major);

/// Checks that `bin_dir` holds initdb and postgres and reads the version from `postgres -V`.
Result<Installation> installation_at(const std::filesystem::path& bin_dir);

/// The directory of release binaries (`<dir>/<version>/bin`): $PGLAB_CACHE_DIR/postgres, else
/// ~/.cache/pglab/postgres ($XDG_CACHE_HOME/pglab/postgres when set), but /var/cache/pglab/postgres
/// for root, whose home the unprivileged server user cannot enter.
std::filesystem::path release_cache_dir();

/// Creates a cache directory (release binaries, builds) and opens it, and every directory above it
/// that this user owns and others cannot pass, to the unprivileged user a server runs as (search
/// only, not listing). Error, with a hint to set PGLAB_CACHE_DIR, when it cannot be created.
Status prepare_cache_dir(const std::filesystem::path& cache);

/// Where `pglab server build` puts builds from source (`<dir>/<key>/bin`): $PGLAB_CACHE_DIR/builds,
/// else beside the release cache (~/.cache/pglab/builds, /var/cache/pglab/builds for root).
std::filesystem::path builds_cache_dir();

/// Every installation found, newest version first: the directories of PGLAB_POSTGRES_PATH
/// (colon-separated; each a bin directory or a directory of installations with `*/bin`), then
/// /usr/lib/postgresql/*/bin, then release_cache_dir()/*/bin, then builds_cache_dir()/*/bin. A
/// directory found twice is listed once.
std::vector<Installation> list_installations();

/// An installation from what a user writes: a path (containing '/') is a bin directory; else a
/// version, "16" (the newest 16.x found), "17.8" (17.8 exactly, or 17.8.x). Builds from source
/// are not chosen by version (a build of master is not "19"): they are named by their source.
/// Error, with the versions that were found and how to fetch one, when none matches.
Result<Installation> resolve_installation(const std::string& spec);

/// Whether `version` ("17.8", "18beta1") is what `spec` ("17", "17.8") asks for: equal, or
/// `spec` followed by '.' or a letter.
bool version_matches(const std::string& version, const std::string& spec);

/// Orders versions by their numbers ("17.10" > "17.9" > "17" ; "18beta1" < "18.0"): <0, 0, >0.
int compare_versions(const std::string& a, const std::string& b);

} // namespace pglab::lab::server
