// Reading a whole file into a string, and writing one whole or not at all.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace pglab::util {

/// The bytes of `path`. Error: `could not open file "PATH": REASON`.
Result<std::string> read_text_file(const std::filesystem::path& path);

/// Writes `text` as the whole content of `path`: into a temporary file beside it, flushed to
/// disk, then renamed over `path`. On failure (a full disk) `path` is as it was (no empty or
/// half file) and the error says why: `could not write file "PATH": REASON`.
Status write_file_atomically(const std::filesystem::path& path, std::string_view text);

} // namespace pglab::util
