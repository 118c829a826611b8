// Reading a results directory (docs/results-format.md) into memory, tolerantly: whatever can be
// read is kept, and every problem (missing file, corrupt line, unknown version) is recorded so
// that reports say what is missing instead of failing or silently dropping data.
#pragma once

#include "util/result.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::report {

/// One line of results.jsonl: a finished run.
struct RunRecord {
    int64_t line = 0; ///< 1-based line number in results.jsonl
    int64_t run = 0;  ///< position in the plan
    int64_t cell = 0; ///< index into the plan's cells
    int64_t repetition = 0;
    bool warmup = false;
    bool ok = false;    ///< status "ok"
    std::string label;  ///< the cell's label
    nlohmann::json doc; ///< the whole line
};

/// A cell of the plan (or, without plan.json, rebuilt from the runs' values).
struct Cell {
    int64_t index = 0;
    std::string label;
    std::string server;
    nlohmann::json values = nlohmann::json::object(); ///< NAME -> value, typed
};

/// Everything read from one results directory.
struct ResultsDir {
    std::filesystem::path dir;
    std::string name; ///< the experiment's name
    std::string description;
    std::optional<nlohmann::json> plan; ///< plan.json, when readable
    std::vector<std::string> variables; ///< matrix variable names in matrix order
    std::vector<Cell> cells;            ///< in plan order
    std::vector<RunRecord> runs;        ///< in file order
    std::string experiment_toml;        ///< experiment.toml's text ("" when missing)
    /// What could not be read, one sentence each ("results.jsonl line 7: not valid JSON (...);
    /// the line is skipped"), in the order found.
    std::vector<std::string> problems;
};

/// Reads `dir`. Error only when `dir` is not a readable directory or holds neither plan.json
/// nor results.jsonl; everything else becomes a problem sentence.
Result<ResultsDir> load_results(const std::filesystem::path& dir);

/// The cell with index `index`, or nullptr.
const Cell* find_cell(const ResultsDir& results, int64_t index);

/// Text of a matrix value as the label writes it (strings unquoted, numbers shortest).
std::string value_text(const nlohmann::json& value);

} // namespace pglab::lab::report
