// lab/run: the progress of `pglab run` on stderr: one line rewritten on a terminal ("[###   ] 3/8
// ... ETA 1:20"), plain lines otherwise.
#pragma once

#include "lab/plan/plan.hpp"
#include "lab/run/run_time.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <string>

namespace pglab::lab::run {

/// Progress on stderr: one rewritten line on a terminal, plain lines otherwise.
class Progress {
public:
    Progress(std::size_t total, std::size_t already)
        : m_total(total), m_done(already), m_tty(::isatty(2) == 1), m_start(Clock::now()) {}

    void starting(const plan::PlannedRun& run, const plan::Cell& cell) {
        std::string eta = "--";
        if (m_finished_here > 0) {
            const double per =
                ms_between(m_start, Clock::now()) / static_cast<double>(m_finished_here);
            const auto left =
                static_cast<long long>(per * static_cast<double>(m_total - m_done) / 1000.0);
            eta = fmt::format("{}:{:02}", left / 60, left % 60);
        }
        // A long matrix value is shown by its start and length, not echoed whole.
        const std::string text = fmt::format("[{}/{}] run {} {}{} rep {}  ETA {}", m_done + 1,
                                             m_total, run.ordinal, util::shorten(cell.label, 200),
                                             run.warmup ? " (warm-up)" : "", run.repetition, eta);
        if (m_tty) {
            const std::size_t width = 20;
            const std::size_t filled = m_total == 0 ? width : width * m_done / m_total;
            std::fprintf(stderr, "\r\033[K[%s%s] %s", std::string(filled, '#').c_str(),
                         std::string(width - filled, '.').c_str(), text.c_str());
        } else {
            std::fprintf(stderr, "pglab: %s\n", text.c_str());
        }
        std::fflush(stderr);
    }

    void finished() {
        ++m_done;
        ++m_finished_here;
    }

    /// A round added by a `repeat` until decided.
    void add(std::size_t runs) { m_total += runs; }

    void end() {
        if (m_tty) {
            std::fputs("\r\033[K", stderr);
            std::fflush(stderr);
        }
    }

private:
    std::size_t m_total;
    std::size_t m_done;
    std::size_t m_finished_here = 0;
    bool m_tty;
    Clock::time_point m_start;
};

} // namespace pglab::lab::run
