// lab/run: the statements left waiting by expect_blocked, until their end is recorded.
#include "lab/run/left_waiting.hpp"

#include <algorithm>

namespace pglab::lab::run {

std::optional<LeftWaiting::Entry> LeftWaiting::take(const std::string& server,
                                                    const std::string& session) {
    const auto it = std::find_if(m_waiting.begin(), m_waiting.end(), [&](const Entry& e) {
        return e.server == server && e.session == session;
    });
    if (it == m_waiting.end()) {
        return std::nullopt;
    }
    Entry e = std::move(*it);
    m_waiting.erase(it);
    return e;
}

std::vector<LeftWaiting::Entry> LeftWaiting::take_all() {
    std::vector<Entry> out;
    out.swap(m_waiting);
    return out;
}

std::vector<LeftWaiting::Ended> LeftWaiting::take_ended() {
    std::vector<Ended> out;
    out.swap(m_ended);
    return out;
}

} // namespace pglab::lab::run
