// Socket I/O of one thread's libpq connections, batched through one io_uring.
//
// libpq stays the protocol engine: it still calls send(), recv() and poll() on its socket, but
// pglab's own definitions of those functions (socket_interpose.cpp) serve the sockets attached
// here from buffers. A send is queued and submitted with every other pending one at the
// thread's next wait; a receive is always armed in the kernel and its bytes wait here until
// libpq asks for them. One system call per wait then carries the sends and receives of all
// clients due, where a libpq connection on its own makes a send, a receive and a poll each.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct pollfd;

namespace pglab::pg {

class BatchedIo {
public:
    /// A ring for the calling thread, which becomes the only thread that may use it (libpq's
    /// socket calls on an attached socket are served only on that thread). Null, with the
    /// reason in `why_not`, when the kernel refuses io_uring (too old, disabled, a seccomp
    /// filter): the caller then keeps libpq's own socket calls.
    static std::unique_ptr<BatchedIo> create(size_t sockets, std::string& why_not);
    ~BatchedIo();
    BatchedIo(const BatchedIo&) = delete;
    BatchedIo& operator=(const BatchedIo&) = delete;

    /// Takes over the I/O of a connected socket. `token` is what wait() reports when the
    /// socket has new input, reached its end or failed. False (socket unchanged) on failure.
    bool attach(int fd, uint32_t token);
    bool attached(int fd) const;
    /// Gives the socket back to the kernel's plain calls: queued output is written, the armed
    /// receive is cancelled. Blocks until both are done; call it before closing the socket.
    void detach(int fd);
    void detach_all();
    /// The caller waits for input on an attached socket: when some was received already (more
    /// than libpq read), or the end or an error, the next wait() reports the socket at once.
    void want_input(int fd);

    /// Submits what is queued and waits at most `timeout_us` (0: no waiting) for completions.
    /// Appends to `ready` the tokens of the sockets that became readable (input, end of file
    /// or an error), each once. False with errno set when the wait failed (EINTR included).
    bool wait(int64_t timeout_us, std::vector<uint32_t>& ready);

    /// The interposed socket calls on an attached socket (see socket_interpose.cpp).
    ssize_t send(int fd, const void* buf, size_t len);
    ssize_t recv(int fd, void* buf, size_t len);
    int poll(struct pollfd* fds, unsigned long nfds, int timeout_ms);

    /// The calling thread's ring, or null.
    static BatchedIo* current();

private:
    struct Impl;
    explicit BatchedIo(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m;
};

} // namespace pglab::pg
