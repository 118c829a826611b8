// lab/experiment: the coverage rows a claim or a step names.
#include "lab/experiment/coverage_items.hpp"

#include <algorithm>
#include <cctype>

namespace pglab::lab::experiment {

namespace {

/// "2.28": digits, a dot, digits (the seed's number and the row's within it).
bool is_row_number(const std::string& s) {
    const auto dot = s.find('.');
    const auto digits = [](std::string_view part) {
        return !part.empty() && std::all_of(part.begin(), part.end(), [](unsigned char ch) {
            return std::isdigit(ch) != 0;
        });
    };
    return dot != std::string::npos && digits(std::string_view(s).substr(0, dot))
           && digits(std::string_view(s).substr(dot + 1));
}

} // namespace

std::vector<std::string> read_coverage_items(TableReader& r) {
    const auto list = r.string_list("items", "items = [\"2.28\"]");
    std::vector<std::string> items;
    if (!list) {
        return items;
    }
    for (const TextField& f : *list) {
        if (!is_row_number(f.text)) {
            r.diag().add(f.pos.shifted(1),
                         "\"" + f.text + "\" in \"items\" of " + r.where()
                             + " is not a row of docs/studies/coverage.md",
                         "name rows by their number, seed and row: items = [\"2.28\"]");
            continue;
        }
        if (std::find(items.begin(), items.end(), f.text) != items.end()) {
            r.diag().add(f.pos.shifted(1),
                         "row \"" + f.text + "\" is named twice in \"items\" of " + r.where(),
                         "name each row once");
            continue;
        }
        items.push_back(f.text);
    }
    return items;
}

} // namespace pglab::lab::experiment
