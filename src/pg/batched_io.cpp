// io_uring batching of libpq's socket calls (see batched_io.hpp for the design).
#include "pg/batched_io.hpp"

#include <fcntl.h>
#include <liburing.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

// Defined in socket_interpose.cpp; calling it here also makes the linker keep the interposed
// send/recv/poll wherever batching is used (they live in a static library).
extern "C" bool pglab_socket_calls_interposed();

namespace pglab::pg {

namespace {

thread_local BatchedIo* t_current = nullptr;

/// What a completion is for; the socket's fd is the rest of its user_data.
enum class Op : uint64_t { recv = 1, send = 2, cancel = 3 };

constexpr size_t k_recv_size = 16384; // libpq's own input buffer starts at this size

uint64_t user_data(int fd, Op op) {
    return (static_cast<uint64_t>(fd) << 2) | static_cast<uint64_t>(op);
}

int64_t monotonic_us() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

unsigned ring_entries(size_t sockets) {
    unsigned n = 64;
    while (n < 2 * sockets + 16 && n < 4096) {
        n *= 2;
    }
    return n;
}

} // namespace

struct BatchedIo::Impl {
    struct Socket {
        int fd = -1;
        uint32_t token = 0;
        int saved_flags = 0;
        bool active = true; ///< cleared by detach: completions no longer re-arm
        std::unique_ptr<char[]> recv_buf{new char[k_recv_size]};
        bool recv_armed = false;
        std::vector<char> input; ///< received, not yet read by libpq
        size_t input_pos = 0;
        bool eof = false;
        int recv_error = 0;
        std::vector<char> sending; ///< in the kernel's hands until its completion
        std::vector<char> queued;  ///< sent by libpq while `sending` was in flight
        bool send_armed = false;
        int send_error = 0;
        bool reported = false; ///< already in m_ready since the last wait()

        size_t available() const { return input.size() - input_pos; }

        bool readable() const { return available() > 0 || eof || recv_error != 0; }

        /// Whether the kernel still holds one of its buffers.
        bool in_flight() const { return recv_armed || send_armed; }
    };

    io_uring ring{};
    std::vector<std::unique_ptr<Socket>> by_fd;
    std::vector<int> ready; ///< fds with news since the last wait()

    Socket* find(int fd) const {
        if (fd < 0 || static_cast<size_t>(fd) >= by_fd.size()) {
            return nullptr;
        }
        return by_fd[static_cast<size_t>(fd)].get();
    }

    io_uring_sqe* sqe() {
        io_uring_sqe* e = nullptr;
        while ((e = io_uring_get_sqe(&ring)) == nullptr) {
            io_uring_submit(&ring); // the submission queue is full: hand it to the kernel first
        }
        return e;
    }

    void arm_recv(Socket& s) {
        io_uring_sqe* e = sqe();
        io_uring_prep_recv(e, s.fd, s.recv_buf.get(), k_recv_size, 0);
        io_uring_sqe_set_data64(e, user_data(s.fd, Op::recv));
        s.recv_armed = true;
    }

    void arm_send(Socket& s) {
        io_uring_sqe* e = sqe();
        io_uring_prep_send(e, s.fd, s.sending.data(), s.sending.size(), MSG_NOSIGNAL);
        io_uring_sqe_set_data64(e, user_data(s.fd, Op::send));
        s.send_armed = true;
    }

    void mark_ready(Socket& s) {
        if (!s.reported) {
            s.reported = true;
            ready.push_back(s.fd);
        }
    }

    void on_recv(Socket& s, int res) {
        s.recv_armed = false;
        if (res > 0) {
            if (s.input_pos == s.input.size()) {
                s.input.clear();
                s.input_pos = 0;
            }
            s.input.insert(s.input.end(), s.recv_buf.get(), s.recv_buf.get() + res);
            if (s.active) {
                arm_recv(s);
            }
            mark_ready(s);
        } else if (res == 0) {
            s.eof = true;
            mark_ready(s);
        } else if (res == -ECANCELED) {
            // detach() cancelled it
        } else if (res == -EAGAIN || res == -EINTR) {
            if (s.active) {
                arm_recv(s);
            }
        } else {
            s.recv_error = -res;
            mark_ready(s);
        }
    }

    void on_send(Socket& s, int res) {
        s.send_armed = false;
        if (res == -EAGAIN || res == -EINTR) {
            arm_send(s);
            return;
        }
        if (res < 0) {
            s.send_error = -res;
            s.sending.clear();
            s.queued.clear();
            mark_ready(s); // the client learns of it at its next socket call
            return;
        }
        s.sending.erase(s.sending.begin(), s.sending.begin() + res);
        s.sending.insert(s.sending.end(), s.queued.begin(), s.queued.end());
        s.queued.clear();
        if (!s.sending.empty()) {
            arm_send(s);
        }
    }

    /// Processes every completion the ring holds.
    void harvest() {
        unsigned head = 0;
        unsigned count = 0;
        io_uring_cqe* cqe = nullptr;
        io_uring_for_each_cqe(&ring, head, cqe) {
            ++count;
            const uint64_t data = io_uring_cqe_get_data64(cqe);
            const int fd = static_cast<int>(data >> 2);
            Socket* s = find(fd);
            if (s == nullptr) {
                continue;
            }
            switch (static_cast<Op>(data & 3)) {
            case Op::recv:
                on_recv(*s, cqe->res);
                break;
            case Op::send:
                on_send(*s, cqe->res);
                break;
            case Op::cancel:
                break;
            }
        }
        io_uring_cq_advance(&ring, count);
    }

    /// Submits the queue and waits up to `timeout_us` for at least one completion (0: only
    /// submits and collects what is there), then harvests. Returns the kernel's error or 0.
    int enter(int64_t timeout_us) {
        int rc = 0;
        if (timeout_us <= 0) {
            rc = io_uring_submit_and_get_events(&ring);
        } else {
            __kernel_timespec ts{};
            ts.tv_sec = timeout_us / 1000000;
            ts.tv_nsec = (timeout_us % 1000000) * 1000;
            io_uring_cqe* cqe = nullptr;
            rc = io_uring_submit_and_wait_timeout(&ring, &cqe, 1, &ts, nullptr);
        }
        harvest();
        return rc < 0 && rc != -ETIME ? rc : 0;
    }

    void restore(Socket& s) {
        if (s.available() > 0) {
            // Only happens when the server sent something unasked while the connection was being
            // given back (an idle connection at the end of a run): libpq would never read it.
            s.input.clear();
            s.input_pos = 0;
        }
        ::fcntl(s.fd, F_SETFL, s.saved_flags);
        by_fd[static_cast<size_t>(s.fd)].reset();
    }

    /// Waits until the kernel holds none of the sockets' buffers, at most `timeout_us`.
    void settle(const std::vector<Socket*>& sockets, int64_t timeout_us) {
        const int64_t give_up = monotonic_us() + timeout_us;
        for (int64_t now = monotonic_us(); now < give_up; now = monotonic_us()) {
            if (std::none_of(sockets.begin(), sockets.end(),
                             [](const Socket* s) { return s->in_flight(); })) {
                return;
            }
            enter(std::min<int64_t>(give_up - now, 100000));
        }
    }

    /// Lets the given sockets' output drain and cancels their receives, then gives them back.
    void release(const std::vector<Socket*>& sockets) {
        for (Socket* s : sockets) {
            s->active = false;
            if (s->recv_armed) {
                io_uring_sqe* e = sqe();
                io_uring_prep_cancel64(e, user_data(s->fd, Op::recv), 0);
                io_uring_sqe_set_data64(e, user_data(s->fd, Op::cancel));
            }
        }
        // A server that stopped reading would keep a send armed forever: give up after 5 s, as
        // the connection is being closed anyway.
        settle(sockets, 5000000);
        bool cancelled = false;
        for (Socket* s : sockets) {
            if (s->in_flight()) {
                io_uring_sqe* e = sqe();
                io_uring_prep_cancel_fd(e, s->fd, IORING_ASYNC_CANCEL_ALL);
                io_uring_sqe_set_data64(e, user_data(s->fd, Op::cancel));
                cancelled = true;
            }
        }
        // The kernel may write into a receive buffer until its cancellation completes, which
        // is prompt: wait for it before the buffers are freed.
        if (cancelled) {
            settle(sockets, 1000000);
        }
        for (Socket* s : sockets) {
            if (s->in_flight()) {
                // Never seen: a cancellation that does not complete. Leak the buffers rather
                // than let the kernel write into freed memory.
                (void)by_fd[static_cast<size_t>(s->fd)].release();
                continue;
            }
            restore(*s);
        }
    }
};

BatchedIo::BatchedIo(std::unique_ptr<Impl> impl) : m(std::move(impl)) {}

std::unique_ptr<BatchedIo> BatchedIo::create(size_t sockets, std::string& why_not) {
    if (!pglab_socket_calls_interposed()) {
        why_not = "libpq's send/recv/poll are not this program's (a preloaded library?)";
        return nullptr;
    }
    auto impl = std::make_unique<Impl>();
    const unsigned entries = ring_entries(sockets);
    // Deferred task work runs completions only when this thread enters the kernel to wait:
    // no interruptions while it works, and the completions of many sockets handled at once.
    int rc = io_uring_queue_init(entries, &impl->ring,
                                 IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
    if (rc == -EINVAL) { // kernels before 6.1
        rc = io_uring_queue_init(entries, &impl->ring, IORING_SETUP_COOP_TASKRUN);
    }
    if (rc == -EINVAL) {
        rc = io_uring_queue_init(entries, &impl->ring, 0);
    }
    if (rc < 0) {
        why_not = std::string("io_uring_setup: ") + std::strerror(-rc);
        return nullptr;
    }
    if ((impl->ring.features & IORING_FEAT_EXT_ARG) == 0) { // before 5.11: no timed waits
        io_uring_queue_exit(&impl->ring);
        why_not = "io_uring lacks timed waits (Linux 5.11 or later is needed)";
        return nullptr;
    }
    std::unique_ptr<BatchedIo> io(new BatchedIo(std::move(impl)));
    t_current = io.get();
    return io;
}

BatchedIo::~BatchedIo() {
    detach_all();
    io_uring_queue_exit(&m->ring);
    if (t_current == this) {
        t_current = nullptr;
    }
}

BatchedIo* BatchedIo::current() {
    return t_current;
}

bool BatchedIo::attach(int fd, uint32_t token) {
    if (fd < 0 || m->find(fd) != nullptr) {
        return false;
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0) {
        return false;
    }
    // The ring's operations wait in the kernel for a blocking socket (they are tried without
    // blocking first); on a non-blocking one some kernels return EAGAIN instead.
    if ((flags & O_NONBLOCK) != 0 && ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        return false;
    }
    if (static_cast<size_t>(fd) >= m->by_fd.size()) {
        m->by_fd.resize(static_cast<size_t>(fd) + 64);
    }
    auto s = std::make_unique<Impl::Socket>();
    s->fd = fd;
    s->token = token;
    s->saved_flags = flags;
    m->arm_recv(*s);
    m->by_fd[static_cast<size_t>(fd)] = std::move(s);
    return true;
}

bool BatchedIo::attached(int fd) const {
    return m->find(fd) != nullptr;
}

void BatchedIo::detach(int fd) {
    if (Impl::Socket* s = m->find(fd)) {
        m->release({s});
    }
}

void BatchedIo::detach_all() {
    std::vector<Impl::Socket*> all;
    for (const auto& s : m->by_fd) {
        if (s) {
            all.push_back(s.get());
        }
    }
    if (!all.empty()) {
        m->release(all);
    }
}

void BatchedIo::want_input(int fd) {
    if (Impl::Socket* s = m->find(fd); s != nullptr && s->readable()) {
        m->mark_ready(*s);
    }
}

bool BatchedIo::wait(int64_t timeout_us, std::vector<uint32_t>& ready) {
    // News found while libpq polled (below) are handed out without waiting again.
    const int rc = m->enter(m->ready.empty() ? timeout_us : 0);
    for (const int fd : m->ready) {
        if (Impl::Socket* s = m->find(fd)) {
            s->reported = false;
            ready.push_back(s->token);
        }
    }
    m->ready.clear();
    if (rc < 0) {
        errno = -rc;
        return false;
    }
    return true;
}

ssize_t BatchedIo::send(int fd, const void* buf, size_t len) {
    Impl::Socket* found = m->find(fd);
    if (found == nullptr) {
        errno = EBADF;
        return -1;
    }
    Impl::Socket& s = *found;
    if (s.send_error != 0) {
        errno = s.send_error;
        return -1;
    }
    const char* bytes = static_cast<const char*>(buf);
    if (s.send_armed) {
        s.queued.insert(s.queued.end(), bytes, bytes + len);
    } else {
        s.sending.assign(bytes, bytes + len);
        m->arm_send(s);
    }
    return static_cast<ssize_t>(len);
}

ssize_t BatchedIo::recv(int fd, void* buf, size_t len) {
    Impl::Socket* found = m->find(fd);
    if (found == nullptr) {
        errno = EBADF;
        return -1;
    }
    Impl::Socket& s = *found;
    const size_t n = std::min(len, s.available());
    if (n > 0) {
        std::memcpy(buf, s.input.data() + s.input_pos, n);
        s.input_pos += n;
        return static_cast<ssize_t>(n);
    }
    if (s.recv_error != 0) {
        errno = s.recv_error;
        return -1;
    }
    if (s.eof) {
        return 0;
    }
    errno = EAGAIN;
    return -1;
}

/// libpq polls only to block in its blocking calls and to tell an end of file from "no data
/// yet" (a zero-timeout poll for input). Attached sockets are always writable: their output is
/// queued here.
int BatchedIo::poll(struct pollfd* fds, unsigned long nfds, int timeout_ms) {
    const int64_t deadline = timeout_ms < 0 ? -1 : monotonic_us() + int64_t{timeout_ms} * 1000;
    while (true) {
        int n = 0;
        for (unsigned long i = 0; i < nfds; ++i) {
            pollfd& p = fds[i];
            p.revents = 0;
            const Impl::Socket* s = m->find(p.fd);
            if (s == nullptr) {
                continue; // a plain socket beside an attached one: libpq never mixes them
            }
            if ((p.events & POLLIN) != 0 && s->readable()) {
                p.revents |= POLLIN;
            }
            if ((p.events & POLLOUT) != 0) {
                p.revents |= s->send_error != 0 ? POLLERR : POLLOUT;
            }
            if (s->eof) {
                p.revents |= POLLHUP;
            }
            n += p.revents != 0 ? 1 : 0;
        }
        const int64_t now = monotonic_us();
        if (n > 0 || (deadline >= 0 && now >= deadline)) {
            return n;
        }
        const int rc = m->enter(deadline < 0 ? 100000 : std::min<int64_t>(deadline - now, 100000));
        if (rc < 0 && rc != -EINTR) {
            errno = -rc;
            return -1;
        }
    }
}

} // namespace pglab::pg
