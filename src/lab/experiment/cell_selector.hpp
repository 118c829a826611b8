// lab/experiment: a cell selector and its items, "NAME=VALUE NAME=VALUE" (`pglab compare --by`, a
// claim's cells). Items are separated by spaces, or by ';' when the text has one, so that values
// with spaces can be named: "server=pg17; params.where=id % 20 != 1". No I/O.
#pragma once

#include "util/result.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pglab::lab::experiment {

struct SelectorItem {
    std::size_t offset = 0; ///< where the item starts in the text (0-based)
    std::string text;       ///< "NAME=VALUE", trimmed; never empty
};

/// The non-empty items of `text`.
std::vector<SelectorItem> split_selector(std::string_view text);

/// A cell selector as parsed: the matrix values a cell must have, NAME and VALUE in the order
/// written ("server" also matches a cell's server when the matrix has no `server`), and the text
/// as written, for messages. No item: every cell.
struct CellSelector {
    std::vector<std::pair<std::string, std::string>> items;
    std::string text;

    bool empty() const { return items.empty(); }

    bool operator==(const CellSelector&) const = default;
};

/// The items of `text`; an error for an item that is not NAME=VALUE. An empty text gives the
/// selector of every cell.
Result<CellSelector> parse_cell_selector(std::string_view text);

} // namespace pglab::lab::experiment
