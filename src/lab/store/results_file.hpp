// lab/store: results.jsonl read by the one rule every reader follows (--resume, the report,
// compare and the exports): which lines are finished runs, and what each kind of damaged line
// means (docs/results-format.md, "Damaged lines").
#pragma once

#include "lab/store/plan_record.hpp"
#include "lab/store/run_record.hpp"
#include "util/result.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::store {

/// A line that is a finished run.
struct FinishedRun {
    std::size_t line = 0; ///< from 1
    RunRecord record;
};

/// Something to say about a line: why it was skipped, or (`skipped` false) a run kept with a
/// reservation.
struct LineProblem {
    std::size_t line = 0;
    std::string what; ///< "not valid JSON", "run 3 appears a second time"...
    bool skipped = true;
};

/// What results.jsonl holds.
struct ResultsFile {
    bool exists = false;
    std::vector<FinishedRun> runs;     ///< in file order, one per run ordinal
    std::vector<LineProblem> problems; ///< in file order
    /// The last line was cut short (no final newline, or not a JSON object): a write that a
    /// kill interrupted. --resume cuts it off.
    bool torn = false;
    std::uintmax_t complete_bytes = 0; ///< the file's length without a torn last line
};

/// The finished runs of a results.jsonl text, by the rule:
/// - a complete line (ending with a newline) that is a JSON object of a run (`pglab.run/1`,
///   with `run` and `cell` numbers and a known status) is a finished run, unless an earlier line
///   already finished the same run ordinal (then it is skipped);
/// - a last line that is cut short is torn: skipped, the run it belonged to runs again;
/// - any other line (not JSON, not a run's object, an unknown status) is skipped with its
///   reason: the run it held counts as not finished, so --resume runs it again and the report
///   says it is missing;
/// - a line whose checksum does not match, or with a value its record would read as another, or
///   (with `plan`) whose run ordinal, cell, repetition, round or values are not the plan's, is
///   skipped with its reason;
/// - a value the record leaves out (an unknown field, an item of another type) is a problem not
///   skipped;
/// - a line of another format version is read for what this pglab knows (a problem not skipped).
ResultsFile parse_results(std::string_view text, const PlanRecord* plan = nullptr);

/// parse_results() of the file at `path`; a missing file holds no run. Error only when the file
/// exists and cannot be read.
Result<ResultsFile> read_results(const std::filesystem::path& path,
                                 const PlanRecord* plan = nullptr);

/// The runs of the results directory `dir`: its results.jsonl, or, where a repository keeps a
/// finished run compressed (docs/studies/results/ID/runs), its results.jsonl.gz; `name` is set
/// to the file read ("results.jsonl.gz"), for the problems' line numbers. Neither: no run.
Result<ResultsFile> read_results_in(const std::filesystem::path& dir, const PlanRecord* plan,
                                    std::string* name = nullptr);

} // namespace pglab::lab::store
