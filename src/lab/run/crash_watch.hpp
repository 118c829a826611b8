// lab/run: a server that crashed and was restarted by its own postmaster during a step. When a
// backend dies by a signal, the postmaster ends every session and reinitialises shared memory
// without ending itself: the postmaster's pid stays, a new session connects, and only the
// server's log says that the step ran across a crash. The step then fails, naming it.
#pragma once

#include "lab/run/servers.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace pglab::lab::run {

/// A crash-restart found in a server's log.
struct Crash {
    std::string server;
    std::string line; ///< the log's line naming the process that died (or the restart)
    std::filesystem::path log;
};

class CrashWatch {
public:
    /// Remembers how far each throwaway server's log goes now (before a step).
    void mark(const ServerSet& servers);

    /// The first crash-restart a server's log tells of since mark(); nothing when none did.
    /// `wait`: how long to look again for one not logged yet (a step that failed because its
    /// sessions were ended can end before the postmaster has logged why).
    std::optional<Crash>
    crashed(const ServerSet& servers,
            std::chrono::milliseconds wait = std::chrono::milliseconds(0)) const;

private:
    std::optional<Crash> crashed_now(const ServerSet& servers) const;

    struct Mark {
        std::filesystem::path log;
        std::uintmax_t size = 0;
    };

    std::map<std::string, Mark> m_marks; ///< by server name
};

} // namespace pglab::lab::run
