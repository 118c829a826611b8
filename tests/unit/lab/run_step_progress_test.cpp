// The step progress line on a terminal (a pseudo-terminal as stderr): a running step's label and
// elapsed time appear once it has run a second, and its end clears the line.
#include "lab/run/step_progress.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace pglab::lab::run {
namespace {

/// stderr replaced by the slave side of a pseudo-terminal for as long as it lives.
class PtyStderr {
public:
    PtyStderr() {
        m_master = ::posix_openpt(O_RDWR | O_NOCTTY);
        if (m_master < 0 || ::grantpt(m_master) != 0 || ::unlockpt(m_master) != 0) {
            return;
        }
        const int slave = ::open(::ptsname(m_master), O_RDWR | O_NOCTTY); // NOLINT
        if (slave < 0) {
            return;
        }
        m_saved = ::dup(2);
        ::dup2(slave, 2);
        ::close(slave);
    }

    ~PtyStderr() {
        if (m_saved >= 0) {
            ::dup2(m_saved, 2);
            ::close(m_saved);
        }
        if (m_master >= 0) {
            ::close(m_master);
        }
    }

    PtyStderr(const PtyStderr&) = delete;
    PtyStderr& operator=(const PtyStderr&) = delete;

    bool ok() const { return m_saved >= 0; }

    /// What was written until `needle` appears (at most 10 s).
    std::string read_until(const std::string& needle) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (m_text.find(needle) == std::string::npos && std::chrono::steady_clock::now() < end) {
            pollfd pfd{m_master, POLLIN, 0};
            if (::poll(&pfd, 1, 100) > 0) {
                char buf[512];
                const ssize_t n = ::read(m_master, buf, sizeof buf);
                if (n > 0) {
                    m_text.append(buf, static_cast<std::size_t>(n));
                }
            }
        }
        return m_text;
    }

private:
    int m_master = -1;
    int m_saved = -1;
    std::string m_text;
};

TEST(StepProgressTest, ALongStepShowsItsElapsedTimeAndItsEndClearsTheLine) {
    PtyStderr pty;
    if (!pty.ok()) {
        GTEST_SKIP() << "no pseudo-terminal could be opened";
    }
    StepProgress progress; // takes the terminal as its stderr
    progress.begin("run 1 of 1, step vacuum (timed-sql)", std::nullopt);
    const std::string shown = pty.read_until("vacuum (timed-sql): 1s");
    EXPECT_NE(shown.find("\r\033[Krun 1 of 1, step vacuum (timed-sql): 1s"), std::string::npos)
        << shown;
    progress.end();
    const std::string after = pty.read_until("1s\r\033[K");
    EXPECT_NE(after.find("1s\r\033[K"), std::string::npos) << after;
}

} // namespace
} // namespace pglab::lab::run
