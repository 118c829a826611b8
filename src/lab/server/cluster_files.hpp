// lab/server: the files and tools of a throwaway cluster's directory, shared by its parts
// (throwaway_cluster.cpp, cluster_initdb.cpp, cluster_client.cpp). Internal to lab/server.
#pragma once

#include "util/result.hpp"
#include "util/subprocess.hpp"

#include <filesystem>
#include <ios>
#include <optional>
#include <string>
#include <string_view>

namespace pglab::lab::server {

/// The last `lines` lines of `text`.
std::string tail_lines(const std::string& text, int lines);

/// Writes `text` to `path` (`mode`: truncate or append); error naming the path.
Status write_file(const std::filesystem::path& path, const std::string& text,
                  std::ios::openmode mode);

/// Creates the directory `path` (its parent must exist); error naming the path.
Status make_directory(const std::filesystem::path& path);

/// Gives `path` to `who` (the server's user when pglab runs as root); nothing without one.
Status chown_to(const std::filesystem::path& path, const std::optional<util::RunAs>& who);

/// "pid:[4026531836]": which pid namespace the pids in a cluster's owner file belong to.
std::string pid_namespace();

/// `cp -a`, as ourselves: as root it keeps the server user's ownership of every file.
bool copy_tree(const std::filesystem::path& from, const std::filesystem::path& to);

/// A tool's run that ended well; else an error `TOOL <how it ended>[ (timed out)]` with the last
/// lines of its output.
Status tool_succeeded(std::string_view tool, const util::ProcessResult& r);

/// The file in a cluster's directory naming the process that owns it (and its pid namespace).
inline constexpr const char* k_owner_file = "pglab.owner";

/// The file in a cluster's directory naming its memory cgroup (`memory_limit`), so that the
/// cgroup of an owner killed by SIGKILL (whose cleanup never ran) goes with its directory.
inline constexpr const char* k_cgroup_file = "pglab.cgroup";

} // namespace pglab::lab::server
