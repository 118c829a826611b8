// lab/probe: the wait-event sampler: one thread and one connection per sampled step.
#include "lab/probe/wait_sampler.hpp"

#include "util/text_file.hpp"

#include <charconv>
#include <cstdlib>

namespace pglab::lab::probe {

namespace {

std::optional<int> read_procs_running(const std::filesystem::path& proc_root) {
    const auto text = util::read_text_file(proc_root / "stat");
    return text ? parse_procs_running(*text) : std::nullopt;
}

} // namespace

const char* wait_sampling_query() {
    // backend_type is in 10 and later; "parallel worker" from 13 (before: "background worker",
    // left out with the other background processes, whose waits are their idle loops).
    return "SELECT coalesce(state, ''), coalesce(wait_event_type, ''), coalesce(wait_event, ''), "
           "count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() "
           "AND backend_type IN ('client backend', 'autovacuum worker', 'parallel worker') "
           "AND coalesce(application_name, '') <> 'pglab progress' GROUP BY 1, 2, 3";
}

std::string wait_name(const ActivityRow& row) {
    const bool working = row.state == "active" || row.state == "fastpath function call";
    if (working || (row.state.empty() && !row.wait_type.empty())) {
        if (row.wait_type.empty()) {
            return "wait.CPU";
        }
        return "wait." + row.wait_type + "." + row.wait_event;
    }
    if (row.state.starts_with("idle in transaction")) { // "(aborted)" too
        return "wait.idle_in_transaction";
    }
    if (row.state == "idle") {
        return "wait.idle";
    }
    return "wait.unknown";
}

std::optional<std::string> wait_family_name(const ActivityRow& row) {
    if (wait_name(row) != "wait." + row.wait_type + "." + row.wait_event) {
        return std::nullopt; // not waiting (idle, on a CPU)
    }
    const std::string& type = row.wait_type;
    const std::string& event = row.wait_event;
    if ((type == "BufferPin" && event == "BufferPin")
        || (type == "Buffer" && event == "BufferCleanup")) {
        return std::string("wait.buffer_pin");
    }
    if ((type == "LWLock" && event == "BufferContent")
        || (type == "Buffer"
            && (event == "BufferShared" || event == "BufferExclusive"
                || event == "BufferShareExclusive"))) {
        return std::string("wait.buffer_content");
    }
    return std::nullopt;
}

void WaitTally::add(const std::vector<ActivityRow>& rows, std::optional<int> runnable) {
    ++m_samples;
    for (const ActivityRow& row : rows) {
        m_sums[wait_name(row)] += row.count;
        if (const auto family = wait_family_name(row)) {
            m_sums[*family] += row.count;
        }
        m_sessions += row.count;
    }
    if (runnable) {
        m_runnable += *runnable;
        ++m_runnable_samples;
    }
}

Deltas WaitTally::averages() const {
    Deltas out;
    if (m_samples == 0) {
        return out;
    }
    const double n = m_samples;
    out.push_back({"wait.samples", n, "count"});
    out.push_back({"wait.sessions", m_sessions / n, "sessions"});
    for (const auto& [name, sum] : m_sums) {
        out.push_back({name, sum / n, "sessions"});
    }
    if (m_runnable_samples == m_samples) {
        out.push_back({"host.runnable", m_runnable / n, "processes"});
    }
    return out;
}

std::optional<int> parse_procs_running(std::string_view proc_stat) {
    constexpr std::string_view key = "procs_running ";
    for (std::size_t at = 0; at < proc_stat.size();) {
        std::size_t end = proc_stat.find('\n', at);
        if (end == std::string_view::npos) {
            end = proc_stat.size();
        }
        const std::string_view line = proc_stat.substr(at, end - at);
        if (line.starts_with(key)) {
            const std::string_view digits = line.substr(key.size());
            int value = 0;
            const auto [ptr, ec] =
                std::from_chars(digits.data(), digits.data() + digits.size(), value);
            if (ec != std::errc() || ptr != digits.data() + digits.size() || value < 0) {
                return std::nullopt;
            }
            return value;
        }
        at = end + 1;
    }
    return std::nullopt;
}

WaitSampler::WaitSampler(pg::ConnParams server, std::chrono::milliseconds period,
                         std::filesystem::path proc_root)
    : m_server(std::move(server)), m_period(period), m_proc_root(std::move(proc_root)) {}

WaitSampler::~WaitSampler() {
    stop();
}

Status WaitSampler::start() {
    m_server.application_name = "pglab waits";
    auto conn = pg::Connection::connect(m_server);
    if (!conn) {
        return make_error("wait sampling: " + conn.error().message);
    }
    m_conn.emplace(std::move(*conn));
    m_conn->on_notice({});
    m_thread = std::thread([this] { loop(); });
    return {};
}

Deltas WaitSampler::stop() {
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_quit = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) {
        m_thread.join();
    }
    if (m_conn && m_tally.samples() == 0 && !m_failed) {
        sample();
    }
    m_conn.reset();
    return m_tally.averages();
}

bool WaitSampler::sample() {
    auto r = m_conn->exec(wait_sampling_query());
    if (!r || r->nfields() != 4) {
        m_failed = true;
        return false;
    }
    std::vector<ActivityRow> rows;
    for (int i = 0; i < r->ntuples(); ++i) {
        rows.push_back({r->value(i, 0), r->value(i, 1), r->value(i, 2),
                        std::atoi(r->value(i, 3))}); // count(*): digits
    }
    m_tally.add(rows, read_procs_running(m_proc_root));
    return true;
}

void WaitSampler::loop() {
    auto next = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_quit) {
        lock.unlock();
        const bool ok = sample();
        lock.lock();
        if (!ok) {
            return; // the server went away or refused: what was sampled stands
        }
        // On a fixed grid, so that a slow sample does not stretch the period; a sample later
        // than a whole period skips the instants it missed.
        const auto now = std::chrono::steady_clock::now();
        next += m_period;
        if (next <= now) {
            next = now + m_period;
        }
        m_wake.wait_until(lock, next, [this] { return m_quit; });
    }
}

} // namespace pglab::lab::probe
