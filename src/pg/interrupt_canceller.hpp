// Ctrl-C during a blocking operation: sends a cancel request for one connection, as
// PostgreSQL's frontend setup_cancel_handler/SetCancelConn do.
#pragma once

#include "pg/connection.hpp"

namespace pglab::pg {

/// While alive, SIGINT sends a cancel request to the server for `conn` (printing "Cancel
/// request sent" on stderr) and sets a flag that loops poll with interrupt_requested().
/// The previous SIGINT disposition is restored on destruction. One instance at a time.
class InterruptCanceller {
public:
    explicit InterruptCanceller(const Connection& conn);
    ~InterruptCanceller();
    InterruptCanceller(const InterruptCanceller&) = delete;
    InterruptCanceller& operator=(const InterruptCanceller&) = delete;

    /// True once SIGINT arrived while an InterruptCanceller was alive.
    static bool interrupt_requested();
};

} // namespace pglab::pg
