// lab/experiment: `items = ["2.28"]` on a claim or a step: the rows of docs/studies/coverage.md
// (the project's table of the papers, item by item) that it tests. scripts/coverage-check reads
// them from the files and fails when the table and the files disagree; pglab itself only checks
// their form.
#pragma once

#include "lab/experiment/toml_reader.hpp"

#include <string>
#include <vector>

namespace pglab::lab::experiment {

/// The row numbers under `items` ("SEED.N": "0.58", "2.28"), each once; a diagnostic at a
/// malformed or repeated one. Empty when the table has no `items`.
std::vector<std::string> read_coverage_items(TableReader& r);

} // namespace pglab::lab::experiment
