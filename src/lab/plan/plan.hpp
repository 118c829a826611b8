// lab/plan: the ordered list of runs of an experiment: the matrix's cells (cross product,
// filtered), each run `repeat` times plus flagged warm-up runs, in the order the file asks for.
// Pure: the same spec and seed always give the same plan. No I/O, no server.
#pragma once

#include "lab/experiment/cell.hpp"
#include "lab/experiment/experiment_spec.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pglab::lab::plan {

/// One matrix variable's value in a cell, and one combination of them (lab/experiment/cell.hpp).
using experiment::Binding;
using experiment::Cell;

/// One run of the plan.
struct PlannedRun {
    std::size_t ordinal = 0;      ///< position in the plan, from 0
    std::size_t cell = 0;         ///< index into Plan::cells
    std::uint32_t repetition = 0; ///< 1..repeat for measured runs, 1..warmup for warm-ups,
                                  ///< increasing in execution order within a cell
    bool warmup = false;          ///< executed and kept, but flagged and left out of statistics
    std::uint32_t round = 0;      ///< interleaved order: the round (from 1); otherwise 0
};

struct Plan {
    std::uint64_t seed = 0;
    experiment::RunOrder order = experiment::RunOrder::as_written;
    std::vector<Cell> cells;
    std::vector<PlannedRun> runs;
};

/// The most runs a plan may have; larger matrices are refused before anything is expanded.
inline constexpr std::size_t k_max_runs = 1'000'000;

/// The cells of the spec's matrix: the cross product in file order (the first variable varies
/// slowest), keeping those for which the filter holds. Error (with the filter's position) when
/// the filter cannot be evaluated, no cell is left, or there would be more than k_max_runs.
Result<std::vector<Cell>> expand_matrix(const experiment::ExperimentSpec& spec);

/// The plan for `spec` ordered with `seed` (used by "random" and "interleaved"; recorded in any
/// case). Orders:
///   as-written:  cell after cell, each cell's warm-ups then its repetitions;
///   random:      all measured runs shuffled together;
///   interleaved: `repeat` rounds, each running every cell once in a freshly shuffled order;
///   paired:      rounds as interleaved, the cells of each claim_blocks() block back to back
///                (blocks shuffled, and the cells within each).
/// In every order a cell's warm-up runs come right before its first measured run.
Result<Plan> build_plan(const experiment::ExperimentSpec& spec, std::uint64_t seed);

/// Appends one round of measured runs of `cells` (indices into plan.cells, each once) to `plan`,
/// for a `repeat` until decided: in an order shuffled with the plan's seed and the round's number
/// (so that the same results always add the same round), each run's repetition one more than its
/// cell's last, its round one more than the plan's last (rounds counted by repetitions in orders
/// without rounds). Returns the runs added.
/// In a paired plan, pass its `blocks` (claim_blocks()): the round keeps each block's cells back to
/// back.
std::vector<PlannedRun> add_round(Plan& plan, std::vector<std::size_t> cells,
                                  const std::vector<std::vector<std::size_t>>& blocks = {});

/// The cells the claims of `spec` compare, in groups (indices into `cells`): the cells of one
/// claim join one group, and groups that share a cell are one; every other cell is a group of its
/// own. In matrix order of their first cells.
std::vector<std::vector<std::size_t>> claim_blocks(const experiment::ExperimentSpec& spec,
                                                   const std::vector<Cell>& cells);

/// The file's `seed` if it has one, else `fallback` (the orchestrator passes a fresh one, for
/// instance from the clock, and records it with the plan).
std::uint64_t choose_seed(const experiment::ExperimentSpec& spec, std::uint64_t fallback);

} // namespace pglab::lab::plan
