// The worker's event loop: concurrent connection set-up, then io_uring (pg::BatchedIo) or epoll
// over the client sockets, a timer heap for \sleep and -R waits. Clients are advanced only
// when their event fires.
#include "bench/worker.hpp"

#include "util/cpu_affinity.hpp"
#include "util/log.hpp"

#include <sys/epoll.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

namespace pglab::bench {

namespace {

constexpr int k_max_events = 256;
/// How often a worker looks around while no client has news: a stop request, the end of a
/// second of the time series, a client overdue after a stop.
constexpr usec_t k_look_around_us = 100000;
/// A wait with nothing due: no timeout, the tick (or a socket) ends it.
constexpr usec_t k_wait_forever = std::numeric_limits<usec_t>::max();
/// The epoll event of the tick, apart from the clients' slots.
constexpr uint32_t k_tick_slot = std::numeric_limits<uint32_t>::max();
/// After SIGINT/SIGTERM (or the lab's deadline, or mpirun ending the job): how long the
/// transactions still running may take before their clients are aborted and what was completed
/// is reported. The end of a -T run sets no such limit: as in pgbench, the transactions running
/// then finish and count, however long they take (on a saturated server, seconds).
constexpr usec_t k_interrupt_grace_us = 2000000;

bool timer_later(const std::pair<usec_t, int>& a, const std::pair<usec_t, int>& b) {
    return a.first > b.first;
}

} // namespace

Worker::Worker(RunShared& shared, int index, std::vector<std::unique_ptr<Client>> clients,
               script::Prng choose, script::Prng throttle, script::Prng sample)
    : m_shared(shared), m_config(shared.config), m_index(index), m_clients(std::move(clients)),
      m_choose_rs(choose), m_throttle_rs(throttle), m_sample_rs(sample) {
    const auto& scripts = m_config.scripts.scripts();
    m_scripts.resize(scripts.size());
    for (size_t i = 0; i < scripts.size(); ++i) {
        m_scripts[i].commands.resize(scripts[i].commands.size());
    }
    for (size_t i = 0; i < m_clients.size(); ++i) {
        m_clients[i]->slot = static_cast<uint32_t>(i);
    }
    m_timers.reserve(m_clients.size() + 1);
    m_active = static_cast<int>(m_clients.size());
}

Worker::~Worker() {
    if (m_epoll >= 0) {
        ::close(m_epoll);
    }
}

bool Worker::open_log(std::string& error) {
    if (!m_config.log_transactions) {
        return true;
    }
    return m_log.open(m_config, m_index, error);
}

void Worker::run() {
    // Before connecting, so that the backends forked for this worker start out next to it.
    if (m_cpu >= 0 && !util::pin_current_thread(m_cpu)) {
        log::debug("thread {} stays unpinned: {}", m_index, std::strerror(errno));
        m_cpu = -1;
    }
    // A thread's timed waits end up to its timer slack late (50 µs by default), which -R and
    // \sleep would report as schedule lag; 1 ns makes the kernel wake it when it is due.
    ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    m_epoll = epoll_create1(EPOLL_CLOEXEC);
    bool ok = m_epoll >= 0;
    if (ok && !m_config.connect_per_tx) {
        ok = connect_all();
    }
    if (!ok) {
        m_shared.setup_failed.store(true);
    } else {
        start_batching();
        start_tick();
    }
    m_shared.go.arrive_and_wait();
    if (m_shared.setup_failed.load()) {
        m_clients_done.store(true, std::memory_order_release);
        m_io.reset();
        return;
    }
    m_bench_start = now_us();
    m_throttle_trigger = m_bench_start;
    usec_t expected = m_shared.earliest_start.load();
    while ((expected == 0 || m_bench_start < expected)
           && !m_shared.earliest_start.compare_exchange_weak(expected, m_bench_start)) {
    }
    m_log.start(m_bench_start);
    m_epoch_shift_us = wall_now_us() - now_us();
    for (auto& c : m_clients) {
        c->state = ClientState::choose_script;
        advance(*c);
    }
    loop();
    m_loop_end = now_us();
    m_clients_done.store(true, std::memory_order_release);
    m_log.finish(m_loop_end);
    if (m_io) {
        m_io->detach_all(); // all at once rather than one by one as the connections close
    }
    for (auto& c : m_clients) {
        c->conn.close(); // after the measured period, as pgbench disconnects after its loop
    }
    m_io.reset(); // on this thread, whose ring it is
    if (m_scripts.size() == 1) {
        m_scripts[0].tx = m_total; // record_tx keeps only the totals when there is one script
    }
    m_shared.series.add(m_second);
    m_second.clear();
}

namespace {

/// Connections a worker has in flight at once. All at once would overflow the listen backlog of
/// the server's socket (PostgreSQL's is 2 x max_connections, PgBouncer's 128) and fail with
/// EAGAIN; one at a time is pgbench's slow start. 32 per worker keeps two workers under 128.
constexpr int k_connect_window = 32;

/// A unix socket whose backlog is full refuses at once with EAGAIN ("Resource temporarily
/// unavailable"), which libpq reports as a failure: such a connection is tried again.
constexpr int k_connect_retries = 100;

bool backlog_full(const std::string& message) {
    return message.find("Resource temporarily unavailable") != std::string::npos;
}

std::string without_trailing_newlines(std::string msg) {
    while (!msg.empty() && msg.back() == '\n') {
        msg.pop_back();
    }
    return msg;
}

} // namespace

/// Starts the clients' connections concurrently, at most k_connect_window at a time, and drives
/// them together with epoll, instead of connecting one client after another as pgbench does.
bool Worker::connect_all() {
    const usec_t start = now_us();
    size_t next = 0;   // the next client to start connecting
    int in_flight = 0; // started, not yet ready
    int retries = 0;
    const auto fail = [&](const Client& c, const std::string& message) {
        log::error("{}", without_trailing_newlines(message));
        m_setup_error = fmt::format("could not create connection for client {}", c.id);
        log::error("{}", m_setup_error);
        return false;
    };
    const auto start_one = [&](Client& c) {
        auto conn = pg::Connection::start_connect(m_config.conn);
        if (!conn) {
            return fail(c, conn.error().message);
        }
        c.conn = std::move(*conn);
        c.want_write = true;
        wait_socket(c);
        ++in_flight;
        return true;
    };
    while (next < m_clients.size() && in_flight < k_connect_window) {
        if (!start_one(*m_clients[next++])) {
            return false;
        }
    }
    epoll_event events[k_max_events];
    while (in_flight > 0) {
        const int n = epoll_wait(m_epoll, events, k_max_events, 1000);
        if (n < 0 && errno != EINTR) {
            m_setup_error = "epoll_wait failed";
            return false;
        }
        for (int i = 0; i < n; ++i) {
            Client& c = *m_clients[events[i].data.u32];
            switch (c.conn.poll_connect()) {
            case pg::PollStatus::reading:
                c.want_write = false;
                wait_socket(c);
                break;
            case pg::PollStatus::writing:
                c.want_write = true;
                wait_socket(c);
                break;
            case pg::PollStatus::ok:
                c.want_write = false;
                c.conn.set_nonblocking(true);
                wait_socket(c);
                --in_flight;
                if (next < m_clients.size() && !start_one(*m_clients[next++])) {
                    return false;
                }
                break;
            case pg::PollStatus::failed: {
                const std::string msg = c.conn.error_message();
                if (backlog_full(msg) && retries < k_connect_retries) {
                    ++retries;
                    forget_socket(c);
                    c.conn.close();
                    --in_flight;
                    if (!start_one(c)) {
                        return false;
                    }
                    break;
                }
                return fail(c, msg);
            }
            }
        }
    }
    m_conn_time = now_us() - start;
    return true;
}

/// Aborts the clients still running once a stop was requested and its grace period has passed.
void Worker::give_up_if_overdue(usec_t now) {
    if (stop_requested() && m_interrupted_at == 0) {
        m_interrupted_at = now;
    }
    if (m_interrupted_at == 0 || now < m_interrupted_at + k_interrupt_grace_us) {
        return;
    }
    for (auto& c : m_clients) {
        if (!c->done && c->state != ClientState::finished && c->state != ClientState::aborted) {
            log::error("client {} aborted: no answer from the server {:.1f} s after the run was "
                       "stopped",
                       c->id, static_cast<double>(now - m_interrupted_at) / 1e6);
            abort_client(*c);
            client_done(*c);
        }
    }
}

void Worker::loop() {
    epoll_event events[k_max_events];
    while (m_active > 0) {
        usec_t now = now_us();
        give_up_if_overdue(now);
        roll_second(now);
        while (!m_timers.empty() && m_timers.front().first <= now) {
            std::pop_heap(m_timers.begin(), m_timers.end(), timer_later);
            const auto [due, idx] = m_timers.back();
            m_wakeup_error.record(now - due);
            m_timers.pop_back();
            Client& c = *m_clients[static_cast<size_t>(idx)];
            c.timer_armed = false;
            advance(c);
            now = now_us();
        }
        if (m_active == 0) {
            break;
        }
        // Without a tick (the ring's threads, a kernel without timerfd) the waits are bounded.
        usec_t wait_us = m_tick.fd() >= 0 ? k_wait_forever : k_look_around_us;
        if (!m_timers.empty()) {
            wait_us = std::min(wait_us, m_timers.front().first - now);
        }
        if (m_io) {
            m_ready.clear();
            if (!m_io->wait(wait_us, m_ready) && errno != EINTR) {
                abort_running("io_uring wait failed");
                break;
            }
            for (const uint32_t slot : m_ready) {
                advance(*m_clients[slot]);
            }
            continue;
        }
        const int n = wait_events(events, wait_us);
        if (n < 0 && errno != EINTR) {
            abort_running("epoll_wait() failed");
            break;
        }
        for (int i = 0; i < n; ++i) {
            if (events[i].data.u32 == k_tick_slot) {
                m_tick.acknowledge(); // the loop's top looks around
                continue;
            }
            advance(*m_clients[events[i].data.u32]);
        }
    }
}

/// Puts a tick into the epoll set, so that a wait with nothing due needs no timeout: pgbench's
/// waits have none then, and arming a timer on every wait made a query's round trip cost a
/// client on one CPU about 5% more (bench/NOTEBOOK.md). Without it, waits are bounded.
void Worker::start_tick() {
    if (m_io) {
        return;
    }
    if (!m_tick.start(k_look_around_us)) {
        log::debug("thread {} bounds its waits: no timerfd: {}", m_index, std::strerror(errno));
        return;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u32 = k_tick_slot;
    if (epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_tick.fd(), &ev) != 0) {
        log::debug("thread {} bounds its waits: {}", m_index, std::strerror(errno));
        m_tick.stop();
    }
}

/// The loop's wait failed: every client still running is aborted, with the reason logged.
void Worker::abort_running(const char* what) {
    log::error("{}: {}", what, std::strerror(errno));
    for (auto& c : m_clients) {
        if (c->state != ClientState::finished && c->state != ClientState::aborted) {
            abort_client(*c);
        }
    }
}

/// Hands the connected clients' sockets to an io_uring, so that one system call per wait sends
/// and receives for all of them. Not with -C (a connection per transaction) nor for encrypted
/// connections, nor by default for a thread of fewer than k_ring_min_clients clients or more
/// than k_ring_max_clients; --no-io-uring, an old kernel or a refusal keeps epoll and libpq's
/// own calls.
void Worker::start_batching() {
    if (!uses_ring(m_config.socket_io, m_clients.size()) || m_config.connect_per_tx
        || m_clients.empty()) {
        return;
    }
    for (const auto& c : m_clients) {
        if (!c->conn.valid() || c->conn.encrypted()) {
            return;
        }
    }
    std::string why_not;
    m_io = pg::BatchedIo::create(m_clients.size(), why_not);
    if (!m_io) {
        log::debug("thread {} keeps epoll: {}", m_index, why_not);
        return;
    }
    for (auto& c : m_clients) {
        forget_socket(*c);
        if (!m_io->attach(c->conn.socket(), c->slot)) {
            log::debug("thread {} keeps epoll: a socket could not be attached", m_index);
            m_io.reset();
            for (auto& other : m_clients) {
                wait_socket(*other);
            }
            return;
        }
    }
    m_ready.reserve(m_clients.size());
    m_used_batched_io = true;
}

/// epoll_pwait2 waits to the microsecond, so that a client due under -R or after \sleep wakes
/// on time (epoll_wait's milliseconds made it up to 1 ms late, and that lateness was reported
/// as latency and schedule lag). Kernels before 5.11 lack it: then epoll_wait, rounded up.
int Worker::wait_events(epoll_event* events, usec_t wait_us) {
    if (wait_us == k_wait_forever) {
        return epoll_wait(m_epoll, events, k_max_events, -1);
    }
    if (wait_us < 0) {
        wait_us = 0;
    }
    if (m_have_pwait2) {
        timespec timeout{};
        timeout.tv_sec = static_cast<time_t>(wait_us / 1000000);
        timeout.tv_nsec = static_cast<long>((wait_us % 1000000) * 1000);
        const int n = epoll_pwait2(m_epoll, events, k_max_events, &timeout, nullptr);
        if (n >= 0 || errno != ENOSYS) {
            return n;
        }
        m_have_pwait2 = false;
    }
    return epoll_wait(m_epoll, events, k_max_events, static_cast<int>((wait_us + 999) / 1000));
}

void Worker::advance(Client& c) {
    m_tx_end_now = 0; // a transaction's end is reused only by its own client's next start
    bool go_on = true;
    while (go_on) {
        switch (c.state) {
        case ClientState::choose_script:
            go_on = on_choose_script(c);
            break;
        case ClientState::prepare_throttle:
            go_on = on_prepare_throttle(c);
            break;
        case ClientState::throttle:
            go_on = on_throttle(c);
            break;
        case ClientState::start_tx:
            go_on = on_start_tx(c);
            break;
        case ClientState::connecting:
            go_on = on_connecting(c);
            break;
        case ClientState::start_command:
            go_on = on_start_command(c);
            break;
        case ClientState::wait_prepare:
            go_on = on_wait_prepare(c);
            break;
        case ClientState::wait_result:
            go_on = on_wait_result(c);
            break;
        case ClientState::sleep:
            go_on = on_sleep(c);
            break;
        case ClientState::end_command:
            go_on = on_end_command(c);
            break;
        case ClientState::error:
            go_on = on_error(c);
            break;
        case ClientState::wait_rollback:
            go_on = on_wait_rollback(c);
            break;
        case ClientState::retry:
            go_on = on_retry(c);
            break;
        case ClientState::failure:
            go_on = on_failure(c);
            break;
        case ClientState::end_tx:
            go_on = on_end_tx(c);
            break;
        case ClientState::aborted:
        case ClientState::finished:
            client_done(c);
            go_on = false;
            break;
        }
    }
}

/// Registers the client's socket for readability (and writability when libpq has output
/// pending). Level-triggered, registered once per connection and modified only when needed.
void Worker::wait_socket(Client& c) {
    const int fd = c.conn.socket();
    if (fd < 0) {
        return;
    }
    if (m_io && m_io->attached(fd)) {
        m_io->want_input(fd); // always armed; input already received makes it ready at once
        return;
    }
    epoll_event ev{};
    ev.events = EPOLLIN | (c.want_write ? EPOLLOUT : 0u);
    ev.data.u32 = c.slot;
    if (c.registered && c.registered_fd == fd) {
        if (c.registered_events != ev.events) { // a syscall only when the interest changes
            epoll_ctl(m_epoll, EPOLL_CTL_MOD, fd, &ev);
            c.registered_events = ev.events;
        }
        return;
    }
    if (c.registered) {
        epoll_ctl(m_epoll, EPOLL_CTL_DEL, c.registered_fd, nullptr);
    }
    epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &ev);
    c.registered_events = ev.events;
    c.registered = true;
    c.registered_fd = fd;
}

void Worker::forget_socket(Client& c) {
    if (c.registered) {
        epoll_ctl(m_epoll, EPOLL_CTL_DEL, c.registered_fd, nullptr);
        c.registered = false;
        c.registered_fd = -1;
    }
}

void Worker::wait_until(Client& c, usec_t when) {
    c.wake_at = when;
    if (c.timer_armed) {
        return; // already queued for this wake-up (an early socket event woke us)
    }
    c.timer_armed = true;
    m_timers.emplace_back(when, static_cast<int>(c.slot));
    std::push_heap(m_timers.begin(), m_timers.end(), timer_later);
}

/// Waits for a point in time (\sleep, -R). A socket event while waiting (the server closed
/// the connection, say) unregisters the socket so that it cannot wake us in a loop; the next
/// SQL command registers it again.
void Worker::wait_for_time(Client& c, usec_t when) {
    if (c.timer_armed) {
        forget_socket(c);
        return;
    }
    wait_until(c, when);
}

void Worker::client_done(Client& c) {
    if (c.done) {
        return;
    }
    c.done = true;
    forget_socket(c);
    if (c.state == ClientState::aborted) {
        ++m_aborted;
        c.conn.close(); // broken or in an unknown state: release it now
    }
    // A finished client keeps its connection until the whole worker is done (run()): closing it
    // now would make its backend exit while other clients' transactions still run, and with
    // hundreds of clients those exits delay the last transactions by most of a second.
    --m_active;
}

} // namespace pglab::bench
