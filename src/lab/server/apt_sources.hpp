// The machine's apt sources (/etc/apt/sources.list and sources.list.d, one-line and deb822
// formats), read to find the Debian archive that PostgreSQL releases newer than the npm release
// binaries come from (`pglab server fetch 19`): the mirror the machine already uses, so that a
// machine behind its own mirror fetches from it.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::server {

/// One source: a `deb` line of sources.list, or a stanza of a .sources file (which may name
/// several types, URIs and suites).
struct AptSource {
    std::vector<std::string> types; ///< "deb", "deb-src"
    std::vector<std::string> uris;
    std::vector<std::string> suites;
    std::vector<std::string> components;
    std::string signed_by; ///< a keyring file, or empty (none given, or an inline key block)
    bool enabled = true;
    std::string origin; ///< "file:line" where it was read, for messages
};

/// The entries of a sources.list file: `deb [opt=value ...] URI SUITE COMPONENT...`; comments
/// and blank lines skipped, a malformed line skipped (apt would refuse it, pglab only reads).
std::vector<AptSource> parse_sources_list(std::string_view text, const std::string& file);

/// The stanzas of a deb822 .sources file (Types, URIs, Suites, Components, Signed-By, Enabled),
/// fields case-insensitive, continuation lines folded; a stanza without Types or URIs skipped.
std::vector<AptSource> parse_deb822_sources(std::string_view text, const std::string& file);

/// Every source of the machine: `etc_apt/sources.list`, then `etc_apt/sources.list.d/*.list`
/// and `*.sources` in name order (other names, such as `*.disabled`, are not read, as apt does
/// not read them).
std::vector<AptSource> read_apt_sources(const std::filesystem::path& etc_apt = "/etc/apt");

/// Debian's archive as pglab fetches from it.
struct DebianArchive {
    std::string mirror;  ///< "http://deb.debian.org/debian", no trailing slash
    std::string keyring; ///< the keyring apt verifies it with
    std::string why;     ///< where the mirror came from, for messages
};

/// The keyring of Debian's archive signing keys that Debian installs (debian-archive-keyring).
inline constexpr const char* k_debian_keyring = "/usr/share/keyrings/debian-archive-keyring.gpg";

/// The archive to fetch from: `override_mirror` when not empty (PGLAB_DEBIAN_MIRROR), else the
/// first enabled `deb` source of Debian's main archive (a suite named after a release or
/// `stable`, `testing`, `unstable`, `sid`, with no `-security`, `-updates` or `-backports`
/// suffix, and component `main`); its Signed-By keyring when it names a file, else Debian's.
/// Error when there is none, naming the files read.
Result<DebianArchive> debian_archive(const std::vector<AptSource>& sources,
                                     const std::string& override_mirror);

} // namespace pglab::lab::server
