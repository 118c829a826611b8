// The end of `pglab run`: the report written into the results directory and the answer printed,
// one line per claim (its verdict, the measured figure and its interval), so that a run ends with
// what it was for rather than with a directory to open.
#pragma once

#include "util/result.hpp"

#include <filesystem>

namespace pglab::cli {

/// Writes report.md and report.html (and the charts) into `results_dir`, then prints the
/// question and one line per claim on standard output.
Status bring_answer(const std::filesystem::path& results_dir);

} // namespace pglab::cli
