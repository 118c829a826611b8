// Reading a whole file into a string (writing one: util/output_file.hpp).
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <string>

namespace pglab::util {

/// The bytes of `path`. Error: `could not open file "PATH": REASON`.
Result<std::string> read_text_file(const std::filesystem::path& path);

} // namespace pglab::util
