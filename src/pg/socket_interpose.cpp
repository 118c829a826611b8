// pglab's own send(), recv() and poll(): libpq calls these (an executable's definitions come
// before libc's in the dynamic linker's lookup) and they serve the sockets a BatchedIo has
// attached on the calling thread; every other call goes straight to the kernel through libc's
// sendto(), recvfrom() and ppoll(), which nothing interposes.
//
// No system header declares these three here: with _FORTIFY_SOURCE, <poll.h> defines poll()
// inline and a second definition would not compile.
#include "pg/batched_io.hpp"

#include <sys/types.h>

#include <cstddef>
#include <ctime>

extern "C" {

struct sockaddr;

struct pollfd {
    int fd;
    short events;
    short revents;
};

using nfds_t = unsigned long;

ssize_t sendto(int fd, const void* buf, size_t len, int flags, const sockaddr* addr,
               unsigned addrlen);
ssize_t recvfrom(int fd, void* buf, size_t len, int flags, sockaddr* addr, unsigned* addrlen);
int ppoll(pollfd* fds, nfds_t nfds, const timespec* timeout, const void* sigmask);

void* dlsym(void* handle, const char* name);

ssize_t send(int fd, const void* buf, size_t len, int flags) {
    pglab::pg::BatchedIo* io = pglab::pg::BatchedIo::current();
    if (io != nullptr && io->attached(fd)) {
        return io->send(fd, buf, len);
    }
    return sendto(fd, buf, len, flags, nullptr, 0);
}

ssize_t recv(int fd, void* buf, size_t len, int flags) {
    pglab::pg::BatchedIo* io = pglab::pg::BatchedIo::current();
    if (io != nullptr && io->attached(fd)) {
        return io->recv(fd, buf, len);
    }
    return recvfrom(fd, buf, len, flags, nullptr, nullptr);
}

int poll(pollfd* fds, nfds_t nfds, int timeout_ms) {
    pglab::pg::BatchedIo* io = pglab::pg::BatchedIo::current();
    if (io != nullptr) {
        for (nfds_t i = 0; i < nfds; ++i) {
            if (io->attached(fds[i].fd)) {
                return io->poll(fds, nfds, timeout_ms);
            }
        }
    }
    if (timeout_ms < 0) {
        return ppoll(fds, nfds, nullptr, nullptr);
    }
    const timespec ts{timeout_ms / 1000, static_cast<long>(timeout_ms % 1000) * 1000000};
    return ppoll(fds, nfds, &ts, nullptr);
}

/// Whether the send/recv/poll that the dynamic linker gives libpq are these: not when a
/// preloaded library or a runtime linked ahead (a sanitizer's, say) defines them first.
bool pglab_socket_calls_interposed() {
    void* const any = nullptr; // RTLD_DEFAULT
    return dlsym(any, "send") == reinterpret_cast<void*>(&send)
           && dlsym(any, "recv") == reinterpret_cast<void*>(&recv)
           && dlsym(any, "poll") == reinterpret_cast<void*>(&poll);
}

} // extern "C"
