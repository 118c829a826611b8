// lab/experiment: splitting cell selectors into their NAME=VALUE items.
#include "lab/experiment/cell_selector.hpp"

#include <fmt/format.h>

namespace pglab::lab::experiment {

std::vector<SelectorItem> split_selector(std::string_view text) {
    const char sep = text.find(';') != std::string_view::npos ? ';' : ' ';
    std::vector<SelectorItem> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(sep, start), text.size());
        std::size_t b = start;
        std::size_t e = end;
        while (b < e && text[b] == ' ') {
            ++b;
        }
        while (e > b && text[e - 1] == ' ') {
            --e;
        }
        if (e > b) {
            out.push_back(SelectorItem{b, std::string(text.substr(b, e - b))});
        }
        start = end + 1;
    }
    return out;
}

Result<CellSelector> parse_cell_selector(std::string_view text) {
    CellSelector out;
    out.text = std::string(text);
    for (const auto& item : split_selector(text)) {
        const std::size_t eq = item.text.find('=');
        if (eq == std::string::npos || eq == 0) {
            return make_error(Error(fmt::format("invalid cell selector \"{}\"", item.text))
                                  .with_hint("Write NAME=VALUE, e.g. server=pg17 or "
                                             "settings.shared_buffers=1GB."));
        }
        out.items.emplace_back(item.text.substr(0, eq), item.text.substr(eq + 1));
    }
    return out;
}

} // namespace pglab::lab::experiment
