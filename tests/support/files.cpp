#include "support/files.hpp"

#include "util/text_file.hpp"

#include <sstream>

namespace support {

std::string read_file(const std::filesystem::path& path) {
    return pglab::util::read_text_file(path).value_or("");
}

std::vector<std::string> lines_of(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) {
        out.push_back(line);
    }
    return out;
}

} // namespace support
