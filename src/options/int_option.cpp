// Numeric option parsing with the C library calls pgbench uses, so edge cases (blanks, signs,
// overflow, empty strings) give the same results and messages.
#include "options/int_option.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <string>

namespace pglab::options {

Result<int> parse_int_option(std::string_view arg, std::string_view name, int min, int max) {
    const std::string text(arg);
    char* end = nullptr;
    errno = 0;
    const long value = std::strtol(text.c_str(), &end, 10);
    // strtoint(): a long that does not fit in int is a range error.
    const bool out_of_int = value < INT_MIN || value > INT_MAX;
    const bool range_error = errno == ERANGE || out_of_int;
    while (*end != '\0' && std::isspace(static_cast<unsigned char>(*end)) != 0) {
        ++end;
    }
    if (*end != '\0') {
        return make_error(fmt::format("invalid value \"{}\" for option {}", arg, name));
    }
    if (range_error || value < min || value > max) {
        return make_error(fmt::format("{} must be in range {}..{}", name, min, max));
    }
    return static_cast<int>(value);
}

int32_t c_atoi(std::string_view arg) {
    const std::string text(arg);
    return static_cast<int32_t>(std::strtol(text.c_str(), nullptr, 10));
}

double c_atof(std::string_view arg) {
    const std::string text(arg);
    return std::strtod(text.c_str(), nullptr);
}

} // namespace pglab::options
