// Reading a results directory (docs/results-format.md) into memory, tolerantly: whatever can be
// read is kept, and every problem (missing file, corrupt line, unknown version) is recorded so
// that reports say what is missing instead of failing or silently dropping data. The judge and
// the report read their runs from here.
#pragma once

#include "lab/experiment/experiment_spec.hpp"
#include "lab/store/plan_record.hpp"
#include "lab/store/results_file.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::store {

/// Everything read from one results directory.
struct ResultsDir {
    std::filesystem::path dir;
    std::string name; ///< the experiment's name
    std::string description;
    std::optional<PlanRecord> plan;     ///< plan.json, when readable
    std::vector<std::string> variables; ///< matrix variable names in matrix order
    std::vector<Cell> cells;            ///< in plan order
    std::vector<FinishedRun> runs;      ///< in file order
    /// For results whose plan.json predates the question and claims in it (plan_has_claims()
    /// false): the results' copy of experiment.toml, parsed once (its files not read), for the
    /// question, the claims and the servers' initdb options. None when it is missing or cannot be
    /// parsed; then `experiment_problem` says why ("" when the file is missing: older results
    /// have none). Never read for newer results: the plan says what the run was made for.
    std::optional<experiment::ExperimentSpec> experiment;
    std::string experiment_problem;
    /// What could not be read, one sentence each ("results.jsonl line 7: not valid JSON (...);
    /// the line is skipped"), in the order found.
    std::vector<std::string> problems;
};

/// Reads `dir`. Error only when `dir` is not a readable directory or holds neither plan.json
/// nor results.jsonl; everything else becomes a problem sentence.
Result<ResultsDir> load_results(const std::filesystem::path& dir);

/// Whether plan.json carries the experiment's question and claims (pglab wrote them from this
/// version on).
bool plan_has_claims(const ResultsDir& results);

/// The cell with index `index`, or nullptr.
const Cell* find_cell(const ResultsDir& results, int64_t index);

} // namespace pglab::lab::store
