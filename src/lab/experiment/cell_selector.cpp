// lab/experiment: splitting cell selectors into their NAME=VALUE items.
#include "lab/experiment/cell_selector.hpp"

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

} // namespace pglab::lab::experiment
