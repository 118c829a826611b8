// What pglab reads of Debian's binary packages to run a PostgreSQL built for a newer Debian than
// the machine's: the control stanzas apt prints, their dependency fields, and the libraries a
// package needs at run time (the closure of its library dependencies, without the packages that
// only serve an installed system: postgresql-common, debconf, locales, perl).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::server {

/// One package's control stanza, fields by their lower-case name.
struct DebianStanza {
    std::map<std::string, std::string> fields;

    /// A field's value, empty when absent.
    std::string get(const std::string& name) const;

    std::string package() const { return get("package"); }

    std::string version() const { return get("version"); }
};

/// The stanzas of `apt-cache show` (blank-line separated; continuation lines folded).
std::vector<DebianStanza> parse_stanzas(std::string_view text);

/// One alternative of a dependency: "libc6 (>= 2.43)" -> {"libc6", ">=", "2.43"}.
struct DebianRelation {
    std::string name; ///< without an architecture qualifier (":any")
    std::string op;   ///< "", "=", ">=", "<=", ">>", "<<"
    std::string version;
};

/// A Depends-like field: the dependencies in order, each its alternatives ("a | b").
std::vector<std::vector<DebianRelation>> parse_relations(std::string_view field);

/// Whether a package is a shared library (or its data) that a binary needs at run time: Debian
/// names those lib* (and zlib1g); packages of an installed system are not followed.
bool is_library_package(const std::string& name);

/// The packages to unpack so that `roots` run: the roots, then every library package their
/// Depends and Pre-Depends reach, through libraries only, each once, in the order found. Of an
/// alternative ("a | b") the first library that `lookup` knows is taken. `pinned` gives the
/// version to take of a package by name (the roots' own source package); any other package is
/// the candidate `lookup` returns. `lookup` answers for a batch of names (one apt-cache call),
/// returning the stanzas it found; a name missing from its answer is unknown (virtual or not in
/// the archive). Returns the stanzas, or the names that were needed but unknown in `missing`.
std::vector<DebianStanza> library_closure(
    const std::vector<std::string>& roots, const std::map<std::string, std::string>& pinned,
    const std::function<std::vector<DebianStanza>(const std::vector<std::string>&)>& lookup,
    std::vector<std::string>& missing);

/// The PostgreSQL version of a Debian package version, as `postgres -V` prints it:
/// "19~rc1-1" -> "19rc1", "18.1-1.pgdg13+1" -> "18.1", "1:17.2-3" -> "17.2". Empty when it does
/// not start with a number.
std::string postgres_version_of_debian(const std::string& debian_version);

} // namespace pglab::lab::server
