// lab/run: the statements that `expect_blocked` left waiting in a session during a run. Their end
// comes after their step was recorded (when another session releases them), so it is kept here
// until the orchestrator adds it to that step (add_late_outcome). Internal to lab/run.
#pragma once

#include "lab/run/functional_checks.hpp"

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::run {

class LeftWaiting {
public:
    /// A statement still waiting at its `expect_blocked` bound.
    struct Entry {
        std::size_t step = 0; ///< index of its step in the experiment
        std::string server;
        std::string session;
        std::chrono::steady_clock::time_point sent;
    };

    /// How one of them ended.
    struct Ended {
        std::size_t step = 0;
        LateOutcome late;
    };

    void add(Entry e) { m_waiting.push_back(std::move(e)); }

    /// The entry of `session` on `server`, removed; nullopt when it has none.
    std::optional<Entry> take(const std::string& server, const std::string& session);

    /// Every entry left, removed.
    std::vector<Entry> take_all();

    void ended(std::size_t step, LateOutcome late) { m_ended.push_back({step, std::move(late)}); }

    /// The ends known since the last call, removed.
    std::vector<Ended> take_ended();

private:
    std::vector<Entry> m_waiting;
    std::vector<Ended> m_ended;
};

} // namespace pglab::lab::run
