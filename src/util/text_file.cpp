#include "util/text_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace pglab::util {

Result<std::string> read_text_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return make_error(
            fmt::format("could not open file \"{}\": {}", path.string(), std::strerror(errno)));
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace pglab::util
