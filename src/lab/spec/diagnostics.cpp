// lab/spec: the diagnostics collector.
#include "lab/spec/diagnostics.hpp"

namespace pglab::lab::spec {

void Diagnostics::add(SourcePos pos, std::string message, std::string hint) {
    ++m_count;
    if (m_items.size() < k_max_kept) {
        m_items.push_back(Diagnostic{std::move(pos), std::move(message), std::move(hint)});
    }
}

Error Diagnostics::to_error() const {
    if (m_items.empty()) {
        return Error("no problem found");
    }
    Error e(m_items.front().headline());
    e.with_hint(m_items.front().hint);
    for (std::size_t i = 1; i < m_items.size(); ++i) {
        e.trailer += m_items[i].headline() + "\n";
        if (!m_items[i].hint.empty()) {
            e.trailer += "  hint: " + m_items[i].hint + "\n";
        }
    }
    if (m_count > m_items.size()) {
        e.trailer += "(" + std::to_string(m_count - m_items.size()) + " more problems not shown)\n";
    }
    return e;
}

} // namespace pglab::lab::spec
