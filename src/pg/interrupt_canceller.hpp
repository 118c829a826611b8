// Ctrl-C during a blocking operation: sends a cancel request for one connection, as
// PostgreSQL's frontend setup_cancel_handler/SetCancelConn do, through the process's one stop
// handler (util/stop_signal).
#pragma once

#include "pg/connection.hpp"
#include "util/stop_signal.hpp"

#include <memory>

struct pg_cancel;

namespace pglab::pg {

/// While alive, a signal that sets the stop request (inside a util::StopSignals scope) sends the
/// server a cancel request for `conn`, printing pgbench's "Cancel request sent" (or why it could
/// not be sent) on stderr. Loops that must stop look at util::stop_signalled().
class InterruptCanceller {
public:
    explicit InterruptCanceller(const Connection& conn);
    InterruptCanceller(const InterruptCanceller&) = delete;
    InterruptCanceller& operator=(const InterruptCanceller&) = delete;

private:
    static void cancel(void* cancel) noexcept;

    struct FreeCancel {
        void operator()(pg_cancel* cancel) const;
    };

    std::unique_ptr<pg_cancel, FreeCancel> m_cancel;
    /// Declared after m_cancel, so destroyed first: no handler uses the cancel object once it is
    /// freed.
    util::OnStopSignal m_on_stop;
};

} // namespace pglab::pg
