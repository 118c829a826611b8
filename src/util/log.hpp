// Diagnostics on stderr in PostgreSQL's frontend style: "pglab: error: ...", "pglab: detail: ...".
// Compatibility tests match the text after the program name, so wording follows pgbench.
#pragma once

#include "util/result.hpp"

#include <fmt/format.h>

#include <string>
#include <string_view>

namespace pglab::log {

enum class Level { debug, info, warning, error };

/// The program name printed before every diagnostic ("pglab", or "pgbench" through a link of
/// that name).
void set_program_name(std::string_view name);

/// The name set_program_name set.
const std::string& program_name();

/// The program as invoked (argv[0]): what getopt names in its complaints, as in pgbench
/// ("/usr/bin/pgbench: invalid option -- 'x'"). "pglab" unless set.
void set_program_path(std::string_view path);
const std::string& program_path();

/// Messages at debug level are printed only when the debug level is enabled (-d).
void set_debug(bool enabled);

bool debug_enabled();

/// Writes one diagnostic line: "<prog>: <level tag>: <text>\n" ("<prog>: <text>" for info and
/// debug, as pgbench does). The whole line goes out in one write so threads do not interleave.
void write(Level level, std::string_view text);

void detail(std::string_view text);

void hint(std::string_view text);

/// Prints an Error with its detail, hint and trailer.
void print(const Error& error);

/// While alive, every diagnostic line also goes to the file at `path` (appended; the lab's
/// results directory keeps its run's messages in pglab.log). One instance at a time; a file
/// that cannot be opened is skipped with a warning.
class CopyToFile {
public:
    explicit CopyToFile(const std::string& path);
    ~CopyToFile();
    CopyToFile(const CopyToFile&) = delete;
    CopyToFile& operator=(const CopyToFile&) = delete;

private:
    int m_fd = -1;
};

template <class... Args>
void error(fmt::format_string<Args...> f, Args&&... args) {
    write(Level::error, fmt::format(f, std::forward<Args>(args)...));
}

template <class... Args>
void warning(fmt::format_string<Args...> f, Args&&... args) {
    write(Level::warning, fmt::format(f, std::forward<Args>(args)...));
}

template <class... Args>
void info(fmt::format_string<Args...> f, Args&&... args) {
    write(Level::info, fmt::format(f, std::forward<Args>(args)...));
}

template <class... Args>
void debug(fmt::format_string<Args...> f, Args&&... args) {
    if (debug_enabled()) {
        write(Level::debug, fmt::format(f, std::forward<Args>(args)...));
    }
}

} // namespace pglab::log
