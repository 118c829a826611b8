// tests/unit/lab: the inputs a fuzzer once failed on, kept one file each under a directory of
// tests/golden, as parameters of a test that runs the fuzzer's checks on each.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

namespace pglab::fuzz {

/// The files of `dir` (its README.md left out), in name order.
inline std::vector<std::filesystem::path> regression_files(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.is_regular_file() && entry.path().filename() != "README.md") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

/// A test name made of the file's name (characters other than letters and digits as `_`).
inline std::string regression_name(const testing::TestParamInfo<std::filesystem::path>& p) {
    std::string name = p.param.filename().string();
    for (char& c : name) {
        c = std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
    }
    return name;
}

} // namespace pglab::fuzz
