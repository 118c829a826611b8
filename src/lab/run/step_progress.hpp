// lab/run: the progress of a long step on the terminal while it runs: its elapsed time and, for
// CREATE INDEX, VACUUM and COPY, the server's own progress (pg_stat_progress_create_index,
// _vacuum, _copy), polled from a connection of its own by one thread kept for the whole plan.
// The rows of those views are formatted by pure functions (server_progress_text), and the lines
// go to a sink that tests may replace.
#pragma once

#include "pg/conn_params.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace pglab::lab::run {

/// The progress views polled.
enum class ProgressView : std::uint8_t { create_index, vacuum, copy };

/// The query of `view`: its columns in the order server_progress_text() reads them.
const char* progress_query(ProgressView view);

/// One row of `view` (the columns of progress_query, as text; nullopt for NULL) as the progress
/// line shows it: "CREATE INDEX: building index: scanning table, blocks 120 of 400 (30%)",
/// "VACUUM: scanning heap, heap blocks 50 of 200 (25%)", "COPY FROM: 5000 rows, 1.2 of 4.0 MB
/// (30%)". A count whose total is unknown (0 or NULL) is shown without it.
std::string server_progress_text(ProgressView view,
                                 const std::vector<std::optional<std::string>>& row);

class StepProgress {
public:
    using Clock = std::chrono::steady_clock;

    /// Where the lines go and how often: the default is the process's stderr, every second on a
    /// terminal (the line rewritten), else every 30 s as a line of its own.
    struct Output {
        /// Receives each line as written ("\r\033[K..." on a terminal, "pglab: ...\n" else).
        std::function<void(std::string_view)> sink;
        bool terminal = false;
        Clock::duration period = std::chrono::seconds(30);
    };

    /// Starts the thread, writing to the stderr the process had when it was made (a step that
    /// captures stderr into its log does not capture these lines).
    StepProgress();

    /// Starts the thread, writing to `output`.
    explicit StepProgress(Output output);

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
    Output m_out;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_quit = false;
    std::uint64_t m_step = 0; ///< counts begin() calls: a poll of an ended step is not shown
    bool m_active = false;
    bool m_shown = false; ///< the current line is a step's (cleared at its end)
    std::string m_label;
    std::optional<pg::ConnParams> m_server;
    Clock::time_point m_start;
    std::thread m_thread;
};

} // namespace pglab::lab::run
