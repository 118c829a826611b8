// lab/run: the progress of a long step on the terminal while it runs: its elapsed time and, for
// CREATE INDEX, VACUUM and COPY, the server's own progress (pg_stat_progress_create_index,
// _vacuum, _copy), polled from a connection of its own by a thread of its own.
#pragma once

#include "pg/conn_params.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace pglab::lab::run {

class StepProgress {
public:
    /// Starts showing `label` ("run 3/12, step vacuum (timed-sql)") for as long as the object
    /// lives. `server`: where to poll the progress views (nullopt: elapsed time only). On a
    /// terminal the line is rewritten every second; otherwise a line is printed every 30 s of a
    /// step that runs that long. Writes to the stderr the process had when it was made (a step
    /// that captures stderr into its log does not capture these lines).
    StepProgress(std::string label, std::optional<pg::ConnParams> server);
    ~StepProgress();

    StepProgress(const StepProgress&) = delete;
    StepProgress& operator=(const StepProgress&) = delete;

private:
    void loop();
    void show(const std::string& text, bool final_line);

    std::string m_label;
    std::optional<pg::ConnParams> m_server;
    int m_fd = -1;
    bool m_tty = false;
    std::chrono::steady_clock::time_point m_start;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_done = false;
    bool m_shown = false;
    std::thread m_thread;
};

} // namespace pglab::lab::run
