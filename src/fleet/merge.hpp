// Rank 0's merge of the fleet's parts into one RunResult: counters and histograms add up
// (losslessly), the measured period runs from the earliest start to the latest end (wall clock),
// and every process gets its line in the per-process section.
#pragma once

#include "stats/progress_line.hpp"

#include <vector>

#include "fleet/wire.hpp"

namespace pglab::fleet {

/// The part of a process that never sent its result: its counters as of its last heartbeat
/// (no histogram, no per-command figures); its clients count as aborted when `process.lost`.
Part lost_part(const bench::ProcessStats& process, const stats::ProgressSnapshot& last,
               size_t scripts);

/// Merges `parts` (one per process, by rank) into `base` (rank 0's own result, which keeps its
/// banner fields, settings and interruption). `connect_per_tx`: -C sums connection times;
/// otherwise the initial connection time is the slowest process's.
bench::RunResult merge_parts(bench::RunResult base, const std::vector<Part>& parts,
                             bool connect_per_tx);

} // namespace pglab::fleet
