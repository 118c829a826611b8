// Finding processes from a test: what still runs in a directory (a server and its backends).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace support {

/// Pids of the processes whose working directory is `dir` or below it (PostgreSQL's server
/// and backends work in their data directory), read from /proc/<pid>/cwd.
std::vector<pid_t> processes_in(const std::filesystem::path& dir);

/// The command line of `pid`, its arguments separated by blanks; "" when it has ended.
std::string command_line(pid_t pid);

/// The command lines (arguments joined by blanks) of processes_in(`dir`), without those that
/// ended meanwhile. A PostgreSQL backend's shows what it does: "postgres: <user> <db> [local]
/// SELECT" while it runs a SELECT.
std::vector<std::string> command_lines_in(const std::filesystem::path& dir);

/// Waits until no process works in `dir`; false when some still do after `timeout`.
bool wait_no_process_in(const std::filesystem::path& dir,
                        std::chrono::milliseconds timeout = std::chrono::seconds(10));

/// Waits until `pid` does not exist; false when it still does after `timeout`.
bool wait_pid_gone(pid_t pid, std::chrono::milliseconds timeout = std::chrono::seconds(10));

} // namespace support
