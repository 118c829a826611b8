// The run as JSON ("pglab.bench/1", fields documented in docs/json-schema.md): options,
// totals, per-script and per-command figures, percentiles and the lossless histograms.
#pragma once

#include "bench/run_config.hpp"
#include "bench/run_result.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace pglab::output {

/// The schema version written in every document's "version" field.
inline constexpr const char* k_json_version = "pglab.bench/1";

/// The whole run as one JSON object. Numbers that pgbench prints are computed with the same
/// formulas (so "tps" equals the report's tps); non-finite values (nothing completed) become
/// null.
nlohmann::json to_json(const bench::RunConfig& config, const bench::RunResult& result);

/// Writes to_json() to `path` (indented by 2, except that arrays of numbers such as histogram
/// buckets stay on one line; final newline), as util::write_output_file writes a user's path
/// (a regular file replaced whole, a FIFO or device written in place), with its errors.
Status write_json(const std::string& path, const bench::RunConfig& config,
                  const bench::RunResult& result);

} // namespace pglab::output
