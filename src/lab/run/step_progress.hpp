// lab/run: the progress of a long step on the terminal while it runs: its elapsed time and, for
// CREATE INDEX, VACUUM and COPY, the server's own progress (pg_stat_progress_create_index,
// _vacuum, _copy), polled from a connection of its own by one thread kept for the whole plan.
#pragma once

#include "pg/conn_params.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace pglab::lab::run {

class StepProgress {
public:
    /// Starts the thread. On a terminal a running step's line is rewritten every second;
    /// otherwise a line is printed every 30 s of a step that runs that long. Writes to the
    /// stderr the process had when it was made (a step that captures stderr into its log does
    /// not capture these lines).
    StepProgress();
    ~StepProgress();

    StepProgress(const StepProgress&) = delete;
    StepProgress& operator=(const StepProgress&) = delete;

    /// A step starts: `label` ("run 3 of 12, step vacuum (timed-sql)"); `server`: where to poll
    /// the progress views (nullopt: elapsed time only).
    void begin(std::string label, std::optional<pg::ConnParams> server);

    /// The step ended: its line is cleared. Cheap: the thread is not waited for.
    void end();

private:
    void loop();
    void show(const std::string& text);

    int m_fd = -1;
    bool m_tty = false;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_quit = false;
    std::uint64_t m_step = 0; ///< counts begin() calls: a poll of an ended step is not shown
    bool m_active = false;
    bool m_shown = false; ///< the current line is a step's (cleared at its end)
    std::string m_label;
    std::optional<pg::ConnParams> m_server;
    std::chrono::steady_clock::time_point m_start;
    std::thread m_thread;
};

} // namespace pglab::lab::run
