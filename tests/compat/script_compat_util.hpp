// Helpers of the script compat tests (script_*_test.cpp): a database of their own on the
// throwaway server (pgbench tables at scale 1), script files in a temporary directory, and runs
// of the reference pgbench (15) and `pglab bench` with the same options and script.
#pragma once

#include "support/run_command.hpp"
#include "support/test_server.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace pglab::script_compat {

enum class Tool { pgbench, pglab };

inline const char* tool_name(Tool t) {
    return t == Tool::pgbench ? "pgbench" : "pglab";
}

using Outcome = support::CommandResult;

/// The test database: pgbench's tables at scale 1, the process's own (support::pgbench_database).
inline const std::string& database() {
    return support::pgbench_database();
}

/// Runs SQL in the test database; returns its unaligned output.
inline std::string psql(const std::string& sql) {
    return support::run_sql(sql, database());
}

/// Makes the test database now, if not done yet.
inline void ensure_database() {
    (void)database();
}

/// A temporary directory for script files, removed at exit.
inline const std::filesystem::path& script_dir() {
    static const std::filesystem::path dir = [] {
        std::string tmpl = (std::filesystem::temp_directory_path() / "pglab_script_XXXXXX");
        const char* made = mkdtemp(tmpl.data());
        EXPECT_NE(made, nullptr);
        return std::filesystem::path(tmpl);
    }();

    static const struct Cleanup {
        ~Cleanup() {
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
        }
    } cleanup;

    return dir;
}

/// Writes `text` to `<script dir>/<name>` and returns the path.
inline std::string write_script(const std::string& name, const std::string& text) {
    const auto path = script_dir() / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

inline std::vector<std::string> split_words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    std::string word;
    while (in >> word) {
        words.push_back(word);
    }
    return words;
}

/// Runs `tool` with `options` (split on blanks) then `-f <file>` for each file.
inline Outcome run_tool(Tool tool, const std::string& options,
                        const std::vector<std::string>& files,
                        const support::EnvOverrides& extra_env = {}) {
    ensure_database();
    std::vector<std::string> argv;
    if (tool == Tool::pgbench) {
        argv = {support::pgbench_binary()};
    } else {
        argv = {support::pglab_binary(), "bench"};
    }
    for (auto& w : split_words(options)) {
        argv.push_back(std::move(w));
    }
    for (const auto& f : files) {
        argv.push_back("-f");
        argv.push_back(f);
    }
    auto env = support::server_env(database());
    env.insert(env.end(), extra_env.begin(), extra_env.end());
    return support::run_command(argv, env, {}, std::chrono::seconds(120));
}

/// stderr lines with the program prefix ("pgbench: ", "/usr/.../pgbench: ", "pglab: ") removed.
inline std::vector<std::string> stderr_lines(const std::string& err) {
    static const std::regex k_prefix(R"(^\S*(pgbench|pglab): )");
    std::vector<std::string> lines;
    std::istringstream in(err);
    std::string line;
    while (std::getline(in, line)) {
        lines.push_back(std::regex_replace(line, k_prefix, ""));
    }
    return lines;
}

/// The debug() lines ("debug(script=0,command=3): int 5") of a run, prefix removed.
inline std::vector<std::string> debug_lines(const std::string& err) {
    std::vector<std::string> out;
    for (auto& l : stderr_lines(err)) {
        if (l.rfind("debug(", 0) == 0) {
            out.push_back(std::move(l));
        }
    }
    return out;
}

inline bool matches(const std::string& text, const std::string& pattern) {
    return std::regex_search(text, std::regex(pattern));
}

/// Checks one run against a TAP case's expectations.
inline void expect_tap(const Outcome& r, Tool tool, int exit_code,
                       const std::vector<std::string>& out_regexes,
                       const std::vector<std::string>& err_regexes) {
    SCOPED_TRACE(tool_name(tool));
    EXPECT_EQ(r.exit_code, exit_code) << support::describe(r);
    for (const auto& re : out_regexes) {
        EXPECT_TRUE(matches(r.out, re)) << "stdout does not match /" << re << "/:\n" << r.out;
    }
    for (const auto& re : err_regexes) {
        EXPECT_TRUE(matches(r.err, re)) << "stderr does not match /" << re << "/:\n" << r.err;
    }
}

} // namespace pglab::script_compat
