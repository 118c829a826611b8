// util: SIGINT/SIGTERM and deadlines as one stop request; the actions signals must take at once.
// Everything the handlers read is a lock-free atomic; they make async-signal-safe calls only.
#include "util/stop_signal.hpp"

#include "util/log.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace pglab::util {

std::atomic<int> g_stop_signal{0};

namespace {

constexpr int k_stop_slots = 8;
constexpr int k_fatal_slots = 4;
constexpr int k_other_fatal_signals[] = {SIGHUP,  SIGQUIT, SIGPIPE, SIGABRT,
                                         SIGSEGV, SIGBUS,  SIGFPE,  SIGILL};

/// The rules of the outermost live scope. Scopes are opened and closed by one thread.
std::atomic<int> g_scopes{0};
std::atomic<pid_t> g_scope_pid{0};
std::atomic<bool> g_scope_ends_process{false};
std::atomic<bool> g_scope_interrupt_only{false};

struct StopSlot {
    std::atomic<bool> taken{false};
    std::atomic<SignalAction> action{nullptr};
    std::atomic<void*> context{nullptr};
};

StopSlot g_stop_actions[k_stop_slots];
/// Handlers running stop actions now: an OnStopSignal going away waits for them, so that no
/// handler uses its context after it is freed.
std::atomic<int> g_running_stop_actions{0};

std::atomic<void (*)() noexcept> g_fatal_actions[k_fatal_slots];

static_assert(std::atomic<SignalAction>::is_always_lock_free
                  && std::atomic<void*>::is_always_lock_free
                  && std::atomic<pid_t>::is_always_lock_free,
              "read from signal handlers");

std::once_flag g_stop_installed;
std::once_flag g_fatal_installed;

void run_fatal_actions() {
    for (auto& slot : g_fatal_actions) {
        if (auto* action = slot.load()) {
            action();
        }
    }
}

/// Whether a live scope of this process turns `sig` into a stop request.
bool scope_takes(int sig) {
    if (g_scopes.load() == 0 || g_scope_pid.load() != ::getpid()) {
        return false;
    }
    if (sig == SIGTERM && g_scope_interrupt_only.load()) {
        return false;
    }
    return !(g_scope_ends_process.load() && g_stop_signal.load() > 0);
}

extern "C" void on_stop_signal(int sig) {
    if (!scope_takes(sig)) {
        end_process_by_signal(sig);
    }
    const int saved_errno = errno;
    g_stop_signal.store(sig);
    g_running_stop_actions.fetch_add(1);
    for (StopSlot& slot : g_stop_actions) {
        if (const SignalAction action = slot.action.load()) {
            action(slot.context.load());
        }
    }
    g_running_stop_actions.fetch_sub(1);
    errno = saved_errno;
}

extern "C" void on_fatal_signal_caught(int sig) {
    end_process_by_signal(sig);
}

/// Installs `handler` for `sig` when its current action passes `keep_current` (false: replace).
template <class KeepCurrent>
void install(int sig, void (*handler)(int), KeepCurrent keep_current) {
    struct sigaction old {};

    if (::sigaction(sig, nullptr, &old) != 0 || keep_current(old)) {
        return;
    }

    struct sigaction act {};

    act.sa_handler = handler;
    sigfillset(&act.sa_mask); // one handler at a time: no stop action inside a cleanup
    act.sa_flags = 0;         // a blocking wait returns EINTR, so its loop looks at the request
    ::sigaction(sig, &act, nullptr);
}

/// SIGINT and SIGTERM, once per process; a signal inherited as ignored stays ignored.
void install_stop_handlers() {
    std::call_once(g_stop_installed, [] {
        for (const int sig : {SIGINT, SIGTERM}) {
            install(sig, on_stop_signal,
                    [](const struct sigaction& old) { return old.sa_handler == SIG_IGN; });
        }
    });
}

} // namespace

void request_deadline_stop() {
    int expected = 0;
    g_stop_signal.compare_exchange_strong(expected, k_stop_deadline);
}

void clear_deadline_stop() {
    int expected = k_stop_deadline;
    g_stop_signal.compare_exchange_strong(expected, 0);
}

StopSignals::StopSignals(Repeat repeat, Which which) {
    install_stop_handlers();
    if (g_scopes.load() > 0 && g_scope_pid.load() == ::getpid()) {
        g_scopes.fetch_add(1);
        return; // an outer scope owns the rules and the request
    }
    g_stop_signal.store(0);
    g_scope_ends_process.store(repeat == Repeat::ends_process);
    g_scope_interrupt_only.store(which == Which::interrupt_only);
    g_scope_pid.store(::getpid());
    g_scopes.store(1);
}

StopSignals::~StopSignals() {
    g_scopes.fetch_sub(1);
}

OnStopSignal::OnStopSignal(SignalAction action, void* context) {
    install_stop_handlers();
    for (int i = 0; i < k_stop_slots; ++i) {
        bool expected = false;
        if (g_stop_actions[i].taken.compare_exchange_strong(expected, true)) {
            g_stop_actions[i].context.store(context);
            g_stop_actions[i].action.store(action);
            m_slot = i;
            return;
        }
    }
    log::warning("too many actions on a stop signal at once: one is left out");
}

OnStopSignal::~OnStopSignal() {
    if (m_slot < 0) {
        return;
    }
    StopSlot& slot = g_stop_actions[m_slot];
    slot.action.store(nullptr);
    while (g_running_stop_actions.load() > 0) {
        std::this_thread::yield();
    }
    slot.context.store(nullptr);
    slot.taken.store(false);
}

// Also the handlers' way out: every call here is async-signal-safe, and unblocking the signal
// inside its handler delivers it at once with the default action.
void end_process_by_signal(int sig) {
    run_fatal_actions();

    struct sigaction dfl {};

    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(sig);
    std::_Exit(128 + sig); // not reached for a signal whose default action ends the process
}

void on_fatal_signal(void (*action)() noexcept) {
    install_stop_handlers();
    std::call_once(g_fatal_installed, [] {
        for (const int sig : k_other_fatal_signals) {
            install(sig, on_fatal_signal_caught, [](const struct sigaction& old) {
                return (old.sa_flags & SA_SIGINFO) != 0 || old.sa_handler != SIG_DFL;
            });
        }
    });
    for (auto& slot : g_fatal_actions) {
        void (*expected)() noexcept = nullptr;
        if (slot.load() == action || slot.compare_exchange_strong(expected, action)) {
            return;
        }
    }
    log::warning("too many actions on a fatal signal: one is left out");
}

} // namespace pglab::util
