// lab/run: the step progress thread: one line a second on a terminal, one every 30 s elsewhere.
#include "lab/run/step_progress.hpp"

#include "pg/connection.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <charconv>

namespace pglab::lab::run {

namespace {

using Clock = StepProgress::Clock;

constexpr auto k_tty_period = std::chrono::seconds(1);
constexpr auto k_log_period = std::chrono::seconds(30);

constexpr ProgressView k_views[] = {ProgressView::create_index, ProgressView::vacuum,
                                    ProgressView::copy};

/// A count of a progress view as an integer; nullopt for NULL or text that is not one.
std::optional<std::int64_t> count_of(const std::vector<std::optional<std::string>>& row,
                                     std::size_t i) {
    if (i >= row.size() || !row[i]) {
        return std::nullopt;
    }
    std::int64_t v = 0;
    const std::string& t = *row[i];
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    return ec == std::errc() && end == t.data() + t.size() ? std::optional<std::int64_t>(v)
                                                           : std::nullopt;
}

std::string text_of(const std::vector<std::optional<std::string>>& row, std::size_t i) {
    return i < row.size() && row[i] ? *row[i] : std::string();
}

/// ", blocks 120 of 400 (30%)"; ", blocks 120" when the total is unknown; "" when nothing is
/// known.
std::string count_text(std::string_view what, std::optional<std::int64_t> done,
                       std::optional<std::int64_t> total, bool percent = true) {
    if (!done) {
        return "";
    }
    if (!total || *total <= 0) {
        return fmt::format(", {} {}", what, *done);
    }
    if (!percent) {
        return fmt::format(", {} {} of {}", what, *done, *total);
    }
    return fmt::format(", {} {} of {} ({:.0f}%)", what, *done, *total,
                       100.0 * static_cast<double>(*done) / static_cast<double>(*total));
}

/// Bytes as MB (10^6 bytes), one decimal.
std::string megabytes(std::int64_t bytes) {
    return fmt::format("{:.1f}", static_cast<double>(bytes) / 1e6);
}

std::string server_progress(pg::Connection& conn) {
    std::string out;
    for (const ProgressView view : k_views) {
        // Each view on its own: a server without one (COPY progress came in 14, CREATE INDEX
        // in 12) still shows the others.
        auto r = conn.exec(progress_query(view));
        if (!r) {
            continue;
        }
        for (int i = 0; i < r->ntuples(); ++i) {
            std::vector<std::optional<std::string>> row;
            for (int c = 0; c < r->nfields(); ++c) {
                row.push_back(r->is_null(i, c) ? std::nullopt
                                               : std::optional<std::string>(r->value(i, c)));
            }
            out += (out.empty() ? "" : "; ") + server_progress_text(view, row);
        }
    }
    return out;
}

std::string elapsed_text(Clock::duration d) {
    const auto s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
    return s < 60 ? fmt::format("{}s", s) : fmt::format("{}m{:02}s", s / 60, s % 60);
}

} // namespace

const char* progress_query(ProgressView view) {
    switch (view) {
    case ProgressView::create_index:
        return "SELECT command, phase, blocks_done, blocks_total, tuples_done, tuples_total, "
               "lockers_done, lockers_total FROM pg_stat_progress_create_index";
    case ProgressView::vacuum:
        return "SELECT phase, heap_blks_scanned, heap_blks_total FROM pg_stat_progress_vacuum";
    case ProgressView::copy:
        return "SELECT command, tuples_processed, bytes_processed, bytes_total "
               "FROM pg_stat_progress_copy";
    }
    return "";
}

std::string server_progress_text(ProgressView view,
                                 const std::vector<std::optional<std::string>>& row) {
    switch (view) {
    case ProgressView::create_index:
        return text_of(row, 0) + ": " + text_of(row, 1)
               + count_text("blocks", count_of(row, 2), count_of(row, 3))
               + count_text("tuples", count_of(row, 4), count_of(row, 5))
               + (count_of(row, 7).value_or(0) > 0
                      ? count_text("lockers", count_of(row, 6), count_of(row, 7), false)
                      : std::string());
    case ProgressView::vacuum:
        return "VACUUM: " + text_of(row, 0)
               + count_text("heap blocks", count_of(row, 1), count_of(row, 2));
    case ProgressView::copy: {
        std::string out =
            text_of(row, 0) + ": " + std::to_string(count_of(row, 1).value_or(0)) + " rows";
        const auto done = count_of(row, 2);
        const auto total = count_of(row, 3);
        if (done && total && *total > 0) {
            out += fmt::format(", {} of {} MB ({:.0f}%)", megabytes(*done), megabytes(*total),
                               100.0 * static_cast<double>(*done) / static_cast<double>(*total));
        } else if (done) {
            out += fmt::format(", {} MB", megabytes(*done));
        }
        return out;
    }
    }
    return "";
}

StepProgress::StepProgress() : m_fd(::dup(2)) {
    m_out.terminal = m_fd >= 0 && ::isatty(m_fd) == 1;
    m_out.period = m_out.terminal ? std::chrono::duration_cast<Clock::duration>(k_tty_period)
                                  : std::chrono::duration_cast<Clock::duration>(k_log_period);
    if (m_fd >= 0) {
        const int fd = m_fd;
        m_out.sink = [fd](std::string_view line) { (void)!::write(fd, line.data(), line.size()); };
        m_thread = std::thread([this] { loop(); });
    }
}

StepProgress::StepProgress(Output output) : m_out(std::move(output)) {
    if (m_out.sink) {
        m_thread = std::thread([this] { loop(); });
    }
}

StepProgress::~StepProgress() {
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_quit = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) {
        m_thread.join();
    }
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

void StepProgress::begin(std::string label, std::optional<pg::ConnParams> server) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    ++m_step;
    m_active = true;
    m_label = std::move(label);
    m_server = std::move(server);
    m_start = Clock::now();
}

void StepProgress::end() {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_active = false;
    if (m_shown && m_out.terminal) {
        show("");
    }
    m_shown = false;
}

void StepProgress::show(const std::string& text) {
    m_out.sink(m_out.terminal ? "\r\033[K" + text : "pglab: " + text + "\n");
}

void StepProgress::loop() {
    const Clock::duration period = m_out.period;
    std::optional<pg::Connection> conn;
    std::uint64_t conn_step = 0; // the step `conn` was opened for
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_quit) {
        m_wake.wait_for(lock, period, [this] { return m_quit; });
        if (m_quit || !m_active || Clock::now() - m_start < period) {
            continue;
        }
        const std::uint64_t step = m_step;
        std::optional<pg::ConnParams> server = m_server;
        const std::string label = m_label;
        const auto elapsed = Clock::now() - m_start;
        lock.unlock();
        if (conn_step != step) {
            conn.reset();
            conn_step = step;
            if (server) {
                server->application_name = "pglab progress";
                if (auto c = pg::Connection::connect(*server)) {
                    conn.emplace(std::move(*c));
                    conn->on_notice({});
                }
            }
        }
        const std::string progress = conn ? server_progress(*conn) : std::string();
        lock.lock();
        if (m_active && m_step == step) { // not ended meanwhile
            show(fmt::format("{}: {}{}", label, elapsed_text(elapsed),
                             progress.empty() ? "" : ", " + progress));
            m_shown = true;
        }
    }
}

} // namespace pglab::lab::run
