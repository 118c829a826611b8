// Matrix shape from the cells' values.
#include "lab/report/cells.hpp"

#include <algorithm>
#include <set>

namespace pglab::lab::report {

Dimensions analyze_dimensions(const ResultsDir& results) {
    Dimensions d;
    std::vector<std::string> names = results.variables;
    for (const auto& cell : results.cells) {
        for (const auto& b : cell.bindings) {
            if (std::find(names.begin(), names.end(), b.name) == names.end()) {
                names.push_back(b.name);
            }
        }
    }
    for (const auto& name : names) {
        std::set<std::string> seen;
        bool all_numeric = true;
        for (const auto& cell : results.cells) {
            const experiment::Scalar* v = cell.find(name);
            // 1, 1.0 and "1" are three values
            seen.insert(v != nullptr ? std::string(v->kind_name()) + ":" + v->text() : "none");
            all_numeric = all_numeric && v != nullptr && v->is_number();
        }
        if (seen.size() > 1) {
            d.varying.push_back(name);
            if (all_numeric && (!d.x || name == "clients")) {
                d.x = name;
            }
        }
    }
    for (const auto& name : d.varying) {
        if (!d.x || name != *d.x) {
            d.series.push_back(name);
        }
    }
    return d;
}

std::string cell_label(const Cell& cell, const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) {
        const experiment::Scalar* v = cell.find(name);
        if (!out.empty()) {
            out += ' ';
        }
        out += name + "=" + (v != nullptr ? v->text() : std::string("?"));
    }
    return out.empty() ? std::string("all runs") : out;
}

std::optional<double> numeric_value(const Cell& cell, const std::string& name) {
    const experiment::Scalar* v = cell.find(name);
    if (v == nullptr || !v->is_number()) {
        return std::nullopt;
    }
    return v->as_double();
}

} // namespace pglab::lab::report
