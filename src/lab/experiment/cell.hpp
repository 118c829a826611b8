// lab/experiment: a cell of an experiment's matrix, one value for each matrix variable and the
// server its runs use. The plan makes the cells; plan.json keeps them as they were made; the report
// reads them back: one type from the plan to the verdicts. No I/O.
#pragma once

#include "lab/experiment/cell_selector.hpp"
#include "lab/experiment/scalar.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::experiment {

/// One matrix variable's value in a cell.
struct Binding {
    std::string name; ///< the variable's full name ("clients", "settings.work_mem")
    Scalar value;

    bool operator==(const Binding&) const = default;
};

/// One combination of matrix values.
struct Cell {
    std::size_t index = 0;         ///< position among the plan's cells (0-based, matrix order)
    std::vector<Binding> bindings; ///< one per matrix variable, in matrix order
    std::string server;            ///< the server the cell's runs use
    /// "clients=4 settings.shared_buffers=1GB" (cell_label): made with the cell, kept as
    /// plan.json recorded it.
    std::string label;

    /// The value of `name`, or null.
    const Scalar* find(std::string_view name) const;

    bool operator==(const Cell&) const = default;
};

/// Whether `cell` has every value of `selector` ("server" also matches the cell's server when
/// the matrix has no `server`).
bool cell_matches(const Cell& cell, const CellSelector& selector);

/// "clients=4 settings.shared_buffers=1GB"; "(no variables)" for an empty matrix.
std::string cell_label(const std::vector<Binding>& bindings);

} // namespace pglab::lab::experiment
