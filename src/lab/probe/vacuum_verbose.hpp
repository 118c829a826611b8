// lab/probe: the figures VACUUM VERBOSE and ANALYZE VERBOSE report, as probes of the step that
// ran them. PostgreSQL 15 to 19 end each table's VACUUM with one INFO message, "finished
// vacuuming "db.schema.table": index scans: N" and a line per aspect (pages, tuples, frozen
// pages, dead items, buffers, WAL, CPU); ANALYZE reports the pages and rows it sampled. Each
// figure becomes a `vacuum.*` or `analyze.*` sample, summed over the tables of the step. A line
// of such a report that pglab does not know is quoted back, never guessed at: its figures are
// absent. Names and versions: docs/probes.md.
#pragma once

#include "lab/probe/probe.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::probe {

/// What the INFO messages of one step gave.
struct VerboseFigures {
    /// vacuum.* and analyze.* samples (counters: a step's own figures), summed over tables, in
    /// the order first seen.
    std::vector<Sample> samples;
    /// Lines of a VERBOSE report pglab does not read, quoted ("VACUUM VERBOSE: a line pglab does
    /// not read: ..."), for the step's probe notes.
    std::vector<std::string> unread;
};

/// Adds the figures of one notice as libpq gives it ("INFO:  finished vacuuming ...\npages:
/// ...\n") to `figures`. Notices that are no VERBOSE report (a NOTICE, "vacuuming ...") add
/// nothing.
void read_verbose_notice(std::string_view notice, VerboseFigures& figures);

/// The figures of every notice of a step.
VerboseFigures read_verbose_notices(const std::vector<std::string>& notices);

} // namespace pglab::lab::probe
