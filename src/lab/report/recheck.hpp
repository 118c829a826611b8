// Re-judging a stored result: `scripts/doc-tables store` keeps with each result its claims as
// judged (claims.csv) and, since 6 December 2026, the runs they were judged on (runs/plan.json,
// runs/results.jsonl.gz). `pglab report --recheck` judges the claims again from those runs and
// names every claim whose verdict, figure or interval differs from the stored one.
#pragma once

#include "util/result.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace pglab::lab::report {

struct RecheckOutcome {
    /// False: the result was stored before runs were kept with it: nothing to re-judge.
    bool runs_kept = false;
    std::size_t claims = 0; ///< claims judged again
    /// One sentence per difference: "claim 2 (\"…\"): verdict stored agrees, now inconclusive".
    std::vector<std::string> differences;
    /// What of the kept runs could not be read or was left out, one sentence each, naming the
    /// file and line ("runs/results.jsonl.gz line 7: not valid JSON; the line is skipped").
    std::vector<std::string> problems;
};

/// Judges the claims of the stored result `stored` again from its kept runs and compares them
/// with its claims.csv. Error when the result or its runs cannot be read.
Result<RecheckOutcome> recheck_stored(const std::filesystem::path& stored);

} // namespace pglab::lab::report
