// Where a PostgreSQL installation lives: its bin directory and version. Finds the newest one under
// /usr/lib/postgresql, one of a given major version, or checks a directory the user names.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <string>

namespace pglab::lab::server {

/// A PostgreSQL installation's bin directory with initdb and postgres in it.
struct Installation {
    std::filesystem::path bin_dir;
    std::string version; ///< as `postgres -V` prints it: "15.10", "17.2", "18beta1"
    int major = 0;       ///< 15, 17...; for 9.x the first number

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

} // namespace pglab::lab::server
