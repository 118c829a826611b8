// The final report on stdout: the selected pgbench's printResults() lines, byte for byte, then
// pglab's own percentile block. Reads only RunConfig and RunResult; prints nothing else.
#pragma once

#include "bench/run_config.hpp"
#include "bench/run_result.hpp"

#include <cstdio>
#include <string>

namespace pglab::output {

/// The report text: everything the selected pgbench prints after the run (from "transaction type:"
/// to the per-command lines; the version banner is printed by the engine before the run), then
/// percentile_block()'s lines.
std::string format_report(const bench::RunConfig& config, const bench::RunResult& result);

/// Only pgbench's lines (no pglab block): the part a pgbench output parser expects.
std::string format_pgbench_report(const bench::RunConfig& config, const bench::RunResult& result);

/// Writes format_report() to `out` (not flushed): stdout, or stderr for an interrupted run.
void print_report(const bench::RunConfig& config, const bench::RunResult& result,
                  std::FILE* out = stdout);

} // namespace pglab::output
