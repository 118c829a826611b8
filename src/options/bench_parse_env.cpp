// The real process environment for the option parser: variables, files, stdin, rlimit, user.
#include "util/log.hpp"

#include <fmt/format.h>

#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "options/bench_options.hpp"
#include "options/fd_limit.hpp"

namespace pglab::options {

namespace {

/// Reads all of `file`; false on a read error (errno set).
bool slurp(std::FILE* file, std::string& out) {
    char buffer[8192];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof(buffer), file)) > 0) {
        out.append(buffer, n);
    }
    return std::ferror(file) == 0;
}

Result<std::string> read_script_file(const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "r");
    if (file == nullptr) {
        return make_error(
            fmt::format("could not open file \"{}\": {}", path, std::strerror(errno)));
    }
    std::string text;
    const bool ok = slurp(file, text);
    const int read_errno = errno;
    std::fclose(file);
    if (!ok) {
        return make_error(
            fmt::format("could not read file \"{}\": {}", path, std::strerror(read_errno)));
    }
    return text;
}

Result<std::string> read_standard_input() {
    std::string text;
    if (!slurp(stdin, text)) {
        return make_error(fmt::format("could not read file \"-\": {}", std::strerror(errno)));
    }
    return text;
}

Result<std::string> effective_user_name() {
    const uid_t uid = geteuid();
    errno = 0;
    const passwd* pw = getpwuid(uid);
    if (pw == nullptr) {
        const char* why = errno != 0 ? std::strerror(errno) : "user does not exist";
        return make_error(
            fmt::format("could not look up effective user ID {}: {}", static_cast<long>(uid), why));
    }
    return std::string(pw->pw_name);
}

} // namespace

BenchParseEnv default_bench_parse_env() {
    BenchParseEnv env;
    env.getenv = [](const char* name) -> std::optional<std::string> {
        const char* value = std::getenv(name); // NOLINT(concurrency-mt-unsafe): single-threaded
        if (value == nullptr) {
            return std::nullopt;
        }
        return std::string(value);
    };
    env.ensure_open_files = ensure_open_files;
    env.read_file = read_script_file;
    env.read_stdin = read_standard_input;
    env.os_user = effective_user_name;
    env.report = [](bool is_error, const Error& message) {
        if (is_error) {
            log::print(message);
        } else {
            log::info("{}", message.message);
        }
    };
    return env;
}

} // namespace pglab::options
