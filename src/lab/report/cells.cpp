// Matrix shape from the cells' values.
#include "lab/report/cells.hpp"

#include <algorithm>
#include <set>

namespace pglab::lab::report {

Dimensions analyze_dimensions(const ResultsDir& results) {
    Dimensions d;
    std::vector<std::string> names = results.variables;
    for (const auto& cell : results.cells) {
        for (const auto& item : cell.values.items()) {
            if (std::find(names.begin(), names.end(), item.key()) == names.end()) {
                names.push_back(item.key());
            }
        }
    }
    for (const auto& name : names) {
        std::set<std::string> seen;
        bool all_numeric = true;
        for (const auto& cell : results.cells) {
            const auto it = cell.values.find(name);
            seen.insert(it != cell.values.end() ? it->dump() : "null");
            all_numeric = all_numeric && it != cell.values.end() && it->is_number();
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
        const auto it = cell.values.find(name);
        if (!out.empty()) {
            out += ' ';
        }
        out += name + "=" + (it != cell.values.end() ? value_text(*it) : std::string("?"));
    }
    return out.empty() ? std::string("all runs") : out;
}

std::optional<double> numeric_value(const Cell& cell, const std::string& name) {
    const auto it = cell.values.find(name);
    if (it == cell.values.end() || !it->is_number()) {
        return std::nullopt;
    }
    return it->get<double>();
}

} // namespace pglab::lab::report
