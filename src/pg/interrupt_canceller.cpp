// SIGINT -> PQcancel for the registered connection (PQcancel is async-signal-safe).
#include "pg/interrupt_canceller.hpp"

#include <libpq-fe.h>

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

namespace pglab::pg {

namespace {

PGcancel* volatile g_cancel = nullptr;
volatile sig_atomic_t g_requested = 0;

struct sigaction g_previous {};

void write_stderr(const char* text) {
    const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
    (void)ignored;
}

void handle_sigint(int /*signo*/) {
    const int saved_errno = errno;
    g_requested = 1;
    PGcancel* cancel = g_cancel;
    if (cancel != nullptr) {
        char errbuf[256];
        if (PQcancel(cancel, errbuf, sizeof errbuf) != 0) {
            write_stderr("Cancel request sent\n");
        } else {
            write_stderr("Could not send cancel request: ");
            write_stderr(errbuf);
        }
    }
    errno = saved_errno;
}

} // namespace

InterruptCanceller::InterruptCanceller(const Connection& conn) {
    g_requested = 0;
    g_cancel = PQgetCancel(conn.raw());

    struct sigaction action {};

    action.sa_handler = handle_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, &g_previous);
}

InterruptCanceller::~InterruptCanceller() {
    sigaction(SIGINT, &g_previous, nullptr);
    PGcancel* cancel = g_cancel;
    g_cancel = nullptr;
    if (cancel != nullptr) {
        PQfreeCancel(cancel);
    }
}

bool InterruptCanceller::interrupt_requested() {
    return g_requested != 0;
}

} // namespace pglab::pg
