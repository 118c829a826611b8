// Comparing what pgbench and pglab bench did with the same command line: exit code, the shape
// of stdout (its keys in order) and stderr without program prefixes and measured numbers.
#pragma once

#include "support/run_command.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace support {

/// What a comparison tolerates.
struct CompareOptions {
    /// pglab may print lines after pgbench's last one (its percentile block, --percentiles).
    /// Off: without a pglab-only option stdout is pgbench's.
    bool allow_extra_trailing_stdout = false;
    /// Drop "progress: ..." lines (-P) from stderr: their number depends on timing.
    bool ignore_progress = true;
    /// Replace decimal numbers ("0.27", "1234.5") in stderr by "<num>": times and rates vary.
    bool mask_decimals = true;
};

/// The key of every non-empty stdout line: the text before its first ':' or '=', trimmed
/// ("latency average = 1.2 ms" -> "latency average"); the whole trimmed line when it has neither.
std::vector<std::string> stdout_keys(std::string_view out);

/// stdout_keys with every number masked as "N" (-r lines start with measured figures).
std::vector<std::string> masked_stdout_keys(std::string_view out);

/// stderr with the "pgbench: " / "pglab bench: " / "pglab: " prefix of each line removed, other
/// mentions of "pglab bench" read as "pgbench", and the masking of `options` applied.
std::string normalise_stderr(std::string_view err, const CompareOptions& options = {});

/// Success when `pglab` behaved as `pgbench` did: same exit code, same stdout keys in the same
/// order, same normalised stderr. The failure message shows the first difference and both
/// outputs.
::testing::AssertionResult same_behaviour(const CommandResult& pgbench, const CommandResult& pglab,
                                          const CompareOptions& options = {});

} // namespace support
