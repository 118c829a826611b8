#include "support/files.hpp"

#include "util/text_file.hpp"

namespace support {

std::string read_file(const std::filesystem::path& path) {
    return pglab::util::read_text_file(path).value_or("");
}

} // namespace support
