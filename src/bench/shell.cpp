#include "bench/shell.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace pglab::bench {

Status run_shell(const std::string& name, const std::string& command) {
    std::fflush(nullptr); // as pgbench 16+: the child must not repeat our buffered output
    if (std::system(command.c_str()) != 0) {
        return make_error(fmt::format("{}: could not launch shell command", name));
    }
    return {};
}

Result<int64_t> run_setshell(const std::string& name, const std::string& command) {
    std::fflush(nullptr);
    FILE* fp = ::popen(command.c_str(), "r");
    if (fp == nullptr) {
        return make_error(fmt::format("{}: could not launch shell command", name));
    }
    char line[64];
    if (std::fgets(line, sizeof line, fp) == nullptr) {
        ::pclose(fp);
        return make_error(fmt::format("{}: could not read result of shell command", name));
    }
    if (::pclose(fp) < 0) {
        return make_error(fmt::format("{}: could not run shell command", name));
    }
    char* parsed_end = nullptr;
    errno = 0;
    const long long value = std::strtoll(line, &parsed_end, 10);
    const char* end = parsed_end != nullptr ? parsed_end : line;
    while (*end != '\0' && std::isspace(static_cast<unsigned char>(*end))) {
        ++end;
    }
    if (end == line || *end != '\0' || errno != 0) {
        std::string shown(line);
        while (!shown.empty() && (shown.back() == '\n' || shown.back() == '\r')) {
            shown.pop_back();
        }
        return make_error(
            fmt::format("{}: shell command must return an integer (not \"{}\")", name, shown));
    }
    return static_cast<int64_t>(value);
}

} // namespace pglab::bench
