// PostgreSQL built from a source tree (a git worktree or an unpacked tarball) for patch review:
// configured out of tree (configure, or meson when there is no configure), built, and installed
// into pglab's cache under a key of what was built (the commit, a hash of the uncommitted
// changes, a hash of the options), so that the same tree and options are built once and two
// trees that differ are two builds.
#pragma once

#include "lab/server/installation.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::server {

/// What identifies a build.
struct BuildKey {
    std::string commit;       ///< the tree's HEAD (40 hex digits); empty for a tree without git
    std::string changes_hash; ///< of the uncommitted changes (git) or of every file (no git);
                              ///< empty for a clean worktree
    std::string options_hash; ///< of the build system and its options

    /// The directory name: "<commit 12>-clean-<options 8>", "<commit 12>-<changes 8>-<options
    /// 8>", or "tree-<files 12>-<options 8>" without git.
    std::string text() const;
};

/// 64-bit FNV-1a: a stable hash (the same on every machine and build) for cache keys.
std::uint64_t fnv1a(std::string_view data, std::uint64_t seed = 0xcbf29ce484222325ULL);

/// The key of `source` built with `system` ("configure" or "meson") and `options`: git's HEAD
/// and the diff of the worktree against it (untracked files included, ignored ones not) when the
/// tree is in git, else every regular file's path and content. Error when git fails on a tree
/// that is in git.
Result<BuildKey> build_key(const std::filesystem::path& source, const std::string& system,
                           const std::vector<std::string>& options);

/// A build request.
struct SourceBuildRequest {
    std::filesystem::path source;     ///< the tree (configure or meson.build at its top)
    std::vector<std::string> options; ///< configure's (or meson's -D...) options
    std::filesystem::path builds_dir; ///< builds_cache_dir()
    int jobs = 1;                     ///< make -j
    bool force = false;               ///< build again when the key is in the cache
    std::function<void(const std::string&)> progress; ///< one line, no newline
};

/// A finished (or found) build.
struct SourceBuild {
    BuildKey key;
    std::filesystem::path dir; ///< builds_dir / key.text(), with bin/ in it
    std::string version;       ///< `postgres -V`'s: "19devel"
    std::string system;        ///< "configure" or "meson"
    double minutes = 0;        ///< of this build; 0 when found
    bool reused = false;       ///< found in the cache, nothing built
};

/// Which build system `source` has: "configure" when it has a configure script, else "meson"
/// when it has meson.build. Error naming both when it has neither.
Result<std::string> build_system_of(const std::filesystem::path& source);

/// The build of `source` with `options` in builds_cache_dir(), found by its key. Error when it
/// is not built (naming the key and `pglab server build`), or `source` is no source tree.
Result<Installation> built_installation(const std::filesystem::path& source,
                                        const std::vector<std::string>& options);

/// The median minutes of the builds in `builds_dir` (their build-info), for an estimate; 0 when
/// there is none.
double typical_build_minutes(const std::filesystem::path& builds_dir);

/// Builds `request.source` into `builds_dir/<key>` (or finds it there). Every step's output goes
/// to `builds_dir/logs/<key>.log`; a step that fails is an error naming the step and the log,
/// and leaves no directory of the build in the cache (the log stays).
Result<SourceBuild> build_from_source(const SourceBuildRequest& request);

} // namespace pglab::lab::server
