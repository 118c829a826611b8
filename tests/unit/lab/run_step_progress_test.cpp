// The step progress line on a terminal (a pseudo-terminal as stderr): a running step's label and
// elapsed time appear once it has run a second, and its end clears the line. And the server's
// progress rows (pg_stat_progress_create_index, _vacuum, _copy) as the line shows them.
#include "lab/run/step_progress.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

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

    /// What was written until `pattern` matches it (at most 10 s).
    std::string read_until(const std::regex& pattern) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!std::regex_search(m_text, pattern) && std::chrono::steady_clock::now() < end) {
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
    // The first line comes a second or so after the step began: later on a loaded machine, so
    // the seconds it shows are not fixed.
    const std::regex line(R"(\r\x1b\[Krun 1 of 1, step vacuum \(timed-sql\): [0-9]+s)");
    const std::string shown = pty.read_until(line);
    EXPECT_TRUE(std::regex_search(shown, line)) << shown;
    progress.end();
    const std::regex cleared(R"([0-9]+s\r\x1b\[K$)");
    const std::string after = pty.read_until(cleared);
    EXPECT_TRUE(std::regex_search(after, cleared)) << after;
}

using Row = std::vector<std::optional<std::string>>;

TEST(StepProgressTest, CreateIndexRowsShowThePhaseAndTheShareDone) {
    EXPECT_EQ(server_progress_text(ProgressView::create_index,
                                   Row{"CREATE INDEX", "building index: scanning table", "120",
                                       "400", "0", "0", "0", "0"}),
              "CREATE INDEX: building index: scanning table, blocks 120 of 400 (30%), tuples 0");
    EXPECT_EQ(server_progress_text(ProgressView::create_index,
                                   Row{"CREATE INDEX", "building index: loading tuples in tree",
                                       "0", "0", "2500", "10000", "0", "0"}),
              "CREATE INDEX: building index: loading tuples in tree, blocks 0, tuples 2500 of "
              "10000 (25%)");
    // Waiting for other transactions: the lockers, without a percentage.
    EXPECT_EQ(server_progress_text(ProgressView::create_index, Row{"CREATE INDEX CONCURRENTLY",
                                                                   "waiting for writers before "
                                                                   "build",
                                                                   "0", "0", "0", "0", "0", "1"}),
              "CREATE INDEX CONCURRENTLY: waiting for writers before build, blocks 0, tuples 0, "
              "lockers 0 of 1");
    EXPECT_EQ(server_progress_text(ProgressView::create_index,
                                   Row{"CREATE INDEX", "initializing", std::nullopt, std::nullopt,
                                       std::nullopt, std::nullopt, std::nullopt, std::nullopt}),
              "CREATE INDEX: initializing");
}

TEST(StepProgressTest, VacuumAndCopyRows) {
    EXPECT_EQ(server_progress_text(ProgressView::vacuum, Row{"scanning heap", "50", "200"}),
              "VACUUM: scanning heap, heap blocks 50 of 200 (25%)");
    EXPECT_EQ(server_progress_text(ProgressView::vacuum, Row{"vacuuming indexes", "200", "200"}),
              "VACUUM: vacuuming indexes, heap blocks 200 of 200 (100%)");
    // MB are 10^6 bytes; a COPY from a program or stdin has no total.
    EXPECT_EQ(
        server_progress_text(ProgressView::copy, Row{"COPY FROM", "5000", "1200000", "4000000"}),
        "COPY FROM: 5000 rows, 1.2 of 4.0 MB (30%)");
    EXPECT_EQ(server_progress_text(ProgressView::copy, Row{"COPY FROM", "5000", "1200000", "0"}),
              "COPY FROM: 5000 rows, 1.2 MB");
}

// Lines go to the sink given, at the period given, and stop at the step's end.
TEST(StepProgressTest, LinesGoToTheSinkGiven) {
    std::mutex mutex;
    std::vector<std::string> lines;
    StepProgress::Output out;
    out.sink = [&](std::string_view line) {
        const std::lock_guard<std::mutex> lock(mutex);
        lines.emplace_back(line);
    };
    out.period = std::chrono::milliseconds(20);
    StepProgress progress(out);
    progress.begin("run 1 of 1, step load (sql)", std::nullopt);
    const auto seen = [&] {
        const std::lock_guard<std::mutex> lock(mutex);
        return !lines.empty();
    };
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!seen() && std::chrono::steady_clock::now() < end) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    progress.end();
    const std::lock_guard<std::mutex> lock(mutex);
    ASSERT_FALSE(lines.empty());
    // Not a terminal: a line of its own, the elapsed time in whole seconds.
    const std::string& first = lines.front();
    EXPECT_EQ(first.rfind("pglab: run 1 of 1, step load (sql): ", 0), 0U) << first;
    EXPECT_EQ(first.substr(first.size() - 2), "s\n") << first;
}

} // namespace
} // namespace pglab::lab::run
