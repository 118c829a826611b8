// What a process of the fleet sends rank 0 at the end: its RunResult's measured part (counters,
// lossless histograms, per-command figures, time series) and its ProcessStats, as JSON text.
#pragma once

#include "bench/run_result.hpp"
#include "util/result.hpp"

#include <string>

namespace pglab::fleet {

/// One process's finished part.
struct Part {
    bench::RunResult result; ///< only the measured fields travel (see encode_part)
    bench::ProcessStats process;
};

/// The lossless text form of `part`: totals, scripts, commands, histograms, aborted clients,
/// durations, start time, thread CPUs, stop signal, series, and the process's figures.
std::string encode_part(const Part& part);

/// Parses encode_part()'s text. Error: `malformed result from a fleet process: <reason>`.
Result<Part> decode_part(const std::string& text);

} // namespace pglab::fleet
