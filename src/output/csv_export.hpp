// The run's summary as CSV (--export-csv): one header line and one data line, the main totals
// and percentiles, taken from the JSON document so that both exports always agree. Columns are
// documented in docs/export.md.
#pragma once

#include "bench/run_config.hpp"
#include "bench/run_result.hpp"
#include "util/result.hpp"

#include <string>

namespace pglab::output {

/// The header line and the data line, each ending in "\n" (RFC 4180 quoting; a figure that
/// does not exist for the run is an empty field).
std::string to_csv(const bench::RunConfig& config, const bench::RunResult& result);

/// Writes to_csv() to `path` as util::write_output_file writes a user's path, with its errors.
Status write_csv(const std::string& path, const bench::RunConfig& config,
                 const bench::RunResult& result);

} // namespace pglab::output
