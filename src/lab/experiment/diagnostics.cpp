// lab/experiment: the diagnostics collector.
#include "lab/experiment/diagnostics.hpp"

#include "util/text.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace pglab::lab::experiment {

void Diagnostics::add(SourcePos pos, std::string message, std::string hint) {
    ++m_count;
    if (m_items.size() < k_max_kept) {
        // A key or value of 100,000 characters is named by its start and its length.
        m_items.push_back(
            Diagnostic{std::move(pos), util::shorten_quoted(message), util::shorten_quoted(hint)});
    }
}

Error Diagnostics::to_error() const {
    if (m_items.empty()) {
        return Error("no problem found");
    }
    // In the order of the file (then as found), which a reader fixing them goes through; a
    // problem with no position (a made-up default) last.
    std::vector<const Diagnostic*> sorted;
    for (const auto& d : m_items) {
        sorted.push_back(&d);
    }
    const auto rank = [](const Diagnostic* d) {
        return std::pair{d->pos.known() ? d->pos.line : UINT32_MAX, d->pos.column};
    };
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](const Diagnostic* a, const Diagnostic* b) { return rank(a) < rank(b); });
    Error e(sorted.front()->headline());
    e.with_hint(sorted.front()->hint);
    for (std::size_t i = 1; i < sorted.size(); ++i) {
        e.trailer += sorted[i]->headline() + "\n";
        if (!sorted[i]->hint.empty()) {
            e.trailer += "  hint: " + sorted[i]->hint + "\n";
        }
    }
    if (m_count > m_items.size()) {
        e.trailer += "(" + std::to_string(m_count - m_items.size()) + " more problems not shown)\n";
    }
    return e;
}

} // namespace pglab::lab::experiment
