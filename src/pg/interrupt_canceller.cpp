// A stop signal -> PQcancel for the registered connection (PQcancel is async-signal-safe).
#include "pg/interrupt_canceller.hpp"

#include <libpq-fe.h>

#include <unistd.h>

#include <cstring>

namespace pglab::pg {

namespace {

void write_stderr(const char* text) {
    const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
    (void)ignored;
}

} // namespace

InterruptCanceller::InterruptCanceller(const Connection& conn)
    : m_cancel(PQgetCancel(conn.raw())), m_on_stop(&InterruptCanceller::cancel, m_cancel.get()) {}

void InterruptCanceller::FreeCancel::operator()(pg_cancel* cancel) const {
    PQfreeCancel(cancel);
}

void InterruptCanceller::cancel(void* cancel) noexcept {
    if (cancel == nullptr) {
        return;
    }
    char errbuf[256];
    if (PQcancel(static_cast<PGcancel*>(cancel), errbuf, sizeof errbuf) != 0) {
        write_stderr("Cancel request sent\n");
    } else {
        write_stderr("Could not send cancel request: ");
        write_stderr(errbuf);
    }
}

} // namespace pglab::pg
