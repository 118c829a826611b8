// Files in tests: what a command under test left behind.
#pragma once

#include <filesystem>
#include <string>

namespace support {

/// The contents of `path`; "" when it cannot be read (the assertion on it then fails).
std::string read_file(const std::filesystem::path& path);

} // namespace support
