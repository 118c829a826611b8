// Files in tests: what a command under test left behind.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace support {

/// The contents of `path`; "" when it cannot be read (the assertion on it then fails).
std::string read_file(const std::filesystem::path& path);

/// The lines of `text`, without their newlines (a last line without one counts too).
std::vector<std::string> lines_of(const std::string& text);

} // namespace support
