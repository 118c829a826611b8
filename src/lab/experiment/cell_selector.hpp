// lab/experiment: the items of a cell selector, "NAME=VALUE NAME=VALUE" (`pglab compare --by`, a
// claim's cells). Items are separated by spaces, or by ';' when the text has one, so that values
// with spaces can be named: "server=pg17; params.where=id % 20 != 1". No I/O.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::experiment {

struct SelectorItem {
    std::size_t offset = 0; ///< where the item starts in the text (0-based)
    std::string text;       ///< "NAME=VALUE", trimmed; never empty
};

/// The non-empty items of `text`.
std::vector<SelectorItem> split_selector(std::string_view text);

} // namespace pglab::lab::experiment
