// lab/run: the step progress thread: one line a second on a terminal, one every 30 s elsewhere.
#include "lab/run/step_progress.hpp"

#include "pg/connection.hpp"

#include <fmt/format.h>

#include <unistd.h>

namespace pglab::lab::run {

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto k_tty_period = std::chrono::seconds(1);
constexpr auto k_log_period = std::chrono::seconds(30);

/// One query per view, each on its own so that a server without the view (COPY progress came in
/// 14, CREATE INDEX in 12) still shows the others.
constexpr const char* k_progress_queries[] = {
    "SELECT 'CREATE INDEX: ' || phase || coalesce(', blocks ' || blocks_done || '/' || "
    "nullif(blocks_total, 0), '') || coalesce(', tuples ' || tuples_done || '/' || "
    "nullif(tuples_total, 0), '') FROM pg_stat_progress_create_index",
    "SELECT 'VACUUM: ' || phase || ', heap blocks ' || heap_blks_scanned || '/' || "
    "heap_blks_total FROM pg_stat_progress_vacuum",
    "SELECT 'COPY: ' || tuples_processed || ' rows' || coalesce(', ' || "
    "pg_size_pretty(bytes_processed) || ' of ' || pg_size_pretty(nullif(bytes_total, 0)), '') "
    "FROM pg_stat_progress_copy",
};

std::string server_progress(pg::Connection& conn) {
    std::string out;
    for (const char* q : k_progress_queries) {
        auto r = conn.exec(q);
        if (!r) {
            continue;
        }
        for (int i = 0; i < r->ntuples(); ++i) {
            out += (out.empty() ? "" : "; ") + std::string(r->value(i, 0));
        }
    }
    return out;
}

std::string elapsed_text(Clock::duration d) {
    const auto s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
    return s < 60 ? fmt::format("{}s", s) : fmt::format("{}m{:02}s", s / 60, s % 60);
}

} // namespace

StepProgress::StepProgress() : m_fd(::dup(2)), m_tty(m_fd >= 0 && ::isatty(m_fd) == 1) {
    if (m_fd >= 0) {
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
    if (m_shown && m_tty) {
        show("");
    }
    m_shown = false;
}

void StepProgress::show(const std::string& text) {
    const std::string line = m_tty ? "\r\033[K" + text : "pglab: " + text + "\n";
    (void)!::write(m_fd, line.data(), line.size());
}

void StepProgress::loop() {
    const auto period = m_tty ? std::chrono::duration_cast<Clock::duration>(k_tty_period)
                              : std::chrono::duration_cast<Clock::duration>(k_log_period);
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
