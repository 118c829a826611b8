// Where the report's golden files and fixtures are (tests/golden/report/), for the report's
// tests that compare with them or read their results directories.
#pragma once

#include <filesystem>

namespace pglab::lab::report::golden {

inline const std::filesystem::path k_dir =
    std::filesystem::path(PGLAB_SOURCE_DIR) / "tests/golden/report";

} // namespace pglab::lab::report::golden
