// lab/store: reading a gzip-compressed file whole (the runs kept with a stored result,
// docs/studies/results/ID/runs/results.jsonl.gz).
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <string>

namespace pglab::lab::store {

/// The decompressed content of `path`; a plain file is read as it is (zlib reads both). Error
/// naming the path when it cannot be opened or is damaged.
Result<std::string> read_gzip_file(const std::filesystem::path& path);

} // namespace pglab::lab::store
