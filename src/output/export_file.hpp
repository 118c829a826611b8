// Writing an export (--export-json, --export-csv) to its file, with the error a user sees.
#pragma once

#include "util/result.hpp"

#include <string>
#include <string_view>

namespace pglab::output {

/// Writes `text` to `path`. Error `could not write KIND file "PATH": reason` when the file
/// cannot be opened, written or closed (a full disk included).
Status write_export_file(const std::string& path, const std::string& text, std::string_view kind);

} // namespace pglab::output
