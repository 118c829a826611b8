// BatchedIo over a Unix socket pair: what libpq's send/recv/poll see on an attached socket.
#include "pg/batched_io.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <string>
#include <vector>

namespace pglab::pg {
namespace {

class BatchedIoTest : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, m_fds), 0);
        // libpq's sockets are non-blocking; the test's peer end stays blocking.
        ::fcntl(ours(), F_SETFL, ::fcntl(ours(), F_GETFL) | O_NONBLOCK);
        std::string why_not;
        m_io = BatchedIo::create(4, why_not);
        if (!m_io) {
            GTEST_SKIP() << "the kernel refuses io_uring here: " << why_not;
        }
    }

    void TearDown() override {
        m_io.reset();
        for (const int fd : m_fds) {
            if (fd >= 0) {
                ::close(fd);
            }
        }
    }

    int ours() const { return m_fds[0]; }

    int peer() const { return m_fds[1]; }

    /// Waits (bounded) until the socket's token is reported; the tokens seen on the way.
    std::vector<uint32_t> wait_for_token(uint32_t token) {
        std::vector<uint32_t> seen;
        for (int i = 0; i < 50; ++i) {
            std::vector<uint32_t> ready;
            EXPECT_TRUE(m_io->wait(100000, ready));
            seen.insert(seen.end(), ready.begin(), ready.end());
            for (const uint32_t t : ready) {
                if (t == token) {
                    return seen;
                }
            }
        }
        ADD_FAILURE() << "token " << token << " never reported";
        return seen;
    }

    /// Reads n bytes at the peer, letting the ring make progress meanwhile (a send whose first
    /// part completed is resubmitted at the next wait).
    std::string read_peer(size_t n) {
        std::string got;
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (got.size() < n && std::chrono::steady_clock::now() < give_up) {
            if (m_io->attached(ours())) {
                std::vector<uint32_t> ready;
                EXPECT_TRUE(m_io->wait(0, ready));
            }
            char buf[65536];
            const ssize_t r =
                ::recv(peer(), buf, std::min(sizeof buf, n - got.size()), MSG_DONTWAIT);
            if (r > 0) {
                got.append(buf, static_cast<size_t>(r));
            } else {
                pollfd p{peer(), POLLIN, 0};
                ::poll(&p, 1, 10); // until the peer has input, or the ring needs another turn
            }
        }
        return got;
    }

    int m_fds[2] = {-1, -1};
    std::unique_ptr<BatchedIo> m_io;
};

TEST_F(BatchedIoTest, SendIsQueuedUntilTheNextWaitThenDelivered) {
    ASSERT_TRUE(m_io->attach(ours(), 7));
    EXPECT_TRUE(m_io->attached(ours()));
    // The interposed send() (what libpq calls) accepts everything at once.
    EXPECT_EQ(::send(ours(), "hello", 5, MSG_NOSIGNAL), 5);
    EXPECT_EQ(::send(ours(), " world", 6, MSG_NOSIGNAL), 6);
    EXPECT_EQ(read_peer(11), "hello world");
}

TEST_F(BatchedIoTest, InputIsReportedOnceAndReadThroughRecv) {
    ASSERT_TRUE(m_io->attach(ours(), 3));
    char buf[64];
    errno = 0;
    EXPECT_EQ(::recv(ours(), buf, sizeof buf, 0), -1); // nothing yet: as a non-blocking socket
    EXPECT_EQ(errno, EAGAIN);
    ASSERT_EQ(::write(peer(), "abcdef", 6), 6);
    const auto seen = wait_for_token(3);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 3U), 1);
    // A short read leaves the rest; asking for input again reports it at once.
    ASSERT_EQ(::recv(ours(), buf, 2, 0), 2);
    EXPECT_EQ(std::string(buf, 2), "ab");
    m_io->want_input(ours());
    std::vector<uint32_t> ready;
    ASSERT_TRUE(m_io->wait(1000000, ready));
    EXPECT_EQ(ready, std::vector<uint32_t>{3});
    ASSERT_EQ(::recv(ours(), buf, sizeof buf, 0), 4);
    EXPECT_EQ(std::string(buf, 4), "cdef");
    // Everything read: no report without new input.
    m_io->want_input(ours());
    ready.clear();
    ASSERT_TRUE(m_io->wait(0, ready));
    EXPECT_TRUE(ready.empty());
}

TEST_F(BatchedIoTest, EndOfFileIsZeroFromRecvAndReadableToPoll) {
    ASSERT_TRUE(m_io->attach(ours(), 1));
    ::close(peer());
    m_fds[1] = -1;
    wait_for_token(1);
    char buf[8];
    EXPECT_EQ(::recv(ours(), buf, sizeof buf, 0), 0);
    // libpq tells an end of file from "no data yet" with a zero-timeout poll for input.
    pollfd p{ours(), POLLIN, 0};
    EXPECT_EQ(::poll(&p, 1, 0), 1);
    EXPECT_NE(p.revents & POLLIN, 0);
}

TEST_F(BatchedIoTest, BlockingPollWaitsForInputAndKeepsOtherNews) {
    int other[2];
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, other), 0);
    ASSERT_TRUE(m_io->attach(ours(), 1));
    ASSERT_TRUE(m_io->attach(other[0], 2));
    ASSERT_EQ(::write(other[1], "x", 1), 1);
    ASSERT_EQ(::write(peer(), "y", 1), 1);
    pollfd p{ours(), POLLIN, 0};
    EXPECT_EQ(::poll(&p, 1, 5000), 1); // libpq blocking in PQgetResult, say
    // Whatever arrived meanwhile for the other socket is still reported by the next wait.
    std::vector<uint32_t> ready;
    ASSERT_TRUE(m_io->wait(0, ready));
    EXPECT_NE(std::find(ready.begin(), ready.end(), 2U), ready.end());
    m_io->detach(other[0]);
    ::close(other[0]);
    ::close(other[1]);
}

TEST_F(BatchedIoTest, DetachWritesQueuedOutputAndRestoresTheSocket) {
    const int flags = ::fcntl(ours(), F_GETFL);
    ASSERT_TRUE(m_io->attach(ours(), 1));
    EXPECT_EQ(::send(ours(), "bye", 3, MSG_NOSIGNAL), 3); // libpq's Terminate before close
    m_io->detach(ours());
    EXPECT_FALSE(m_io->attached(ours()));
    EXPECT_EQ(::fcntl(ours(), F_GETFL), flags);
    EXPECT_EQ(read_peer(3), "bye");
    // Plain socket calls again: the input goes to the kernel's socket, not to the ring.
    ASSERT_EQ(::write(peer(), "z", 1), 1);
    pollfd p{ours(), POLLIN, 0};
    ASSERT_EQ(::poll(&p, 1, 5000), 1);
    char c = 0;
    EXPECT_EQ(::recv(ours(), &c, 1, 0), 1);
    EXPECT_EQ(c, 'z');
}

TEST_F(BatchedIoTest, LargeOutputArrivesWholeAndInOrder) {
    ASSERT_TRUE(m_io->attach(ours(), 1));
    std::string big;
    for (int i = 0; i < 300000; ++i) {
        big += static_cast<char>('a' + i % 26);
    }
    // More than the socket buffer holds: the kernel takes it in parts while the peer reads.
    EXPECT_EQ(::send(ours(), big.data(), 100000, MSG_NOSIGNAL), 100000);
    EXPECT_EQ(::send(ours(), big.data() + 100000, 200000, MSG_NOSIGNAL), 200000);
    const std::string got = read_peer(big.size());
    EXPECT_EQ(got, big);
}

TEST_F(BatchedIoTest, SocketsOfOtherThreadsAndUnattachedOnesArePlain) {
    EXPECT_FALSE(m_io->attached(ours()));
    EXPECT_EQ(::send(ours(), "p", 1, MSG_NOSIGNAL), 1); // straight to the kernel
    EXPECT_EQ(read_peer(1), "p");
    EXPECT_FALSE(m_io->attach(-1, 0));
}

} // namespace
} // namespace pglab::pg
