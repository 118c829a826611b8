// lab/experiment: matrix cells.
#include "lab/experiment/cell.hpp"

namespace pglab::lab::experiment {

const Scalar* Cell::find(std::string_view name) const {
    for (const auto& b : bindings) {
        if (b.name == name) {
            return &b.value;
        }
    }
    return nullptr;
}

std::string cell_label(const std::vector<Binding>& bindings) {
    if (bindings.empty()) {
        return "(no variables)";
    }
    std::string out;
    for (const auto& b : bindings) {
        if (!out.empty()) {
            out += ' ';
        }
        out += b.name + "=" + b.value.text();
    }
    return out;
}

bool cell_matches(const Cell& cell, const CellSelector& selector) {
    for (const auto& [name, value] : selector.items) {
        if (const Scalar* v = cell.find(name)) {
            if (v->text() != value) {
                return false;
            }
        } else if (!(name == "server" && cell.server == value)) {
            return false;
        }
    }
    return true;
}

} // namespace pglab::lab::experiment
