// lab/store: results directory, append-only results.jsonl with fsync, torn-line recovery.
#include "lab/store/results_store.hpp"

#include "util/log.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

namespace pglab::lab::store {

namespace fs = std::filesystem;

namespace {

Status write_all(int fd, std::string_view data, const fs::path& path) {
    while (!data.empty()) {
        const ssize_t n = ::write(fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return make_error(fmt::format("could not write file \"{}\": {}", path.string(),
                                          std::strerror(errno)));
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return {};
}

Status write_file_synced(const fs::path& path, std::string_view data) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return make_error(
            fmt::format("could not create file \"{}\": {}", path.string(), std::strerror(errno)));
    }
    Status st = write_all(fd, data, path);
    if (st && ::fsync(fd) != 0) {
        st = make_error(
            fmt::format("could not fsync file \"{}\": {}", path.string(), std::strerror(errno)));
    }
    ::close(fd);
    return st;
}

void fsync_dir(const fs::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

fs::path default_results_dir(std::string_view name, std::int64_t epoch_s) {
    std::string clean;
    for (const char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                        || c == '_' || c == '-' || c == '.';
        clean += ok ? c : '_';
    }
    if (clean.empty()) {
        clean = "experiment";
    }
    const std::time_t t = static_cast<std::time_t>(epoch_s);
    std::tm tm{};
    localtime_r(&t, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    return fs::path("results") / fmt::format("{}-{}", clean, stamp);
}

Result<JsonlContents> read_jsonl(const fs::path& path) {
    JsonlContents out;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        return out;
    }
    PGLAB_TRY_ASSIGN(const std::string text, util::read_text_file(path));
    std::size_t pos = 0;
    std::size_t line_no = 0;
    while (pos < text.size()) {
        ++line_no;
        const std::size_t nl = text.find('\n', pos);
        const bool last = nl == std::string::npos || nl + 1 == text.size();
        const std::string_view line(text.data() + pos,
                                    (nl == std::string::npos ? text.size() : nl) - pos);
        nlohmann::json value = nlohmann::json::parse(line, nullptr, false);
        const bool good = nl != std::string::npos && !value.is_discarded() && value.is_object();
        if (!good) {
            if (last) {
                out.torn = true;
                break;
            }
            return make_error(
                fmt::format("\"{}\" line {}: not a JSON object", path.string(), line_no));
        }
        out.lines.push_back(std::move(value));
        pos = nl + 1;
        out.valid_bytes = pos;
    }
    return out;
}

ResultsStore::ResultsStore(ResultsStore&& other) noexcept
    : m_dir(std::move(other.m_dir)), m_plan(std::move(other.m_plan)),
      m_finished(std::move(other.m_finished)), m_fd(other.m_fd) {
    other.m_fd = -1;
}

ResultsStore& ResultsStore::operator=(ResultsStore&& other) noexcept {
    if (this != &other) {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
        m_dir = std::move(other.m_dir);
        m_plan = std::move(other.m_plan);
        m_finished = std::move(other.m_finished);
        m_fd = other.m_fd;
        other.m_fd = -1;
    }
    return *this;
}

ResultsStore::~ResultsStore() {
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

Status ResultsStore::open_jsonl() {
    const fs::path path = m_dir / "results.jsonl";
    m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (m_fd < 0) {
        return make_error(
            fmt::format("could not open file \"{}\": {}", path.string(), std::strerror(errno)));
    }
    return {};
}

Result<ResultsStore> ResultsStore::create(const fs::path& dir, std::string_view experiment_text,
                                          const nlohmann::json& plan) {
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
        return make_error(
            Error(fmt::format("results directory \"{}\" already exists and is not empty",
                              dir.string()))
                .with_hint("choose another one with --results, or continue it with --resume"));
    }
    fs::create_directories(dir / "runs", ec);
    if (ec) {
        return make_error(
            fmt::format("could not create directory \"{}\": {}", dir.string(), ec.message()));
    }
    ResultsStore store;
    store.m_dir = dir;
    store.m_plan = plan;
    PGLAB_TRY(write_file_synced(dir / "experiment.toml", experiment_text));
    PGLAB_TRY(write_file_synced(dir / "plan.json", plan.dump(2) + "\n"));
    PGLAB_TRY(store.open_jsonl());
    fsync_dir(dir);
    return store;
}

Result<ResultsStore> ResultsStore::open(const fs::path& dir) {
    ResultsStore store;
    store.m_dir = dir;
    PGLAB_TRY_ASSIGN(const std::string plan_text, util::read_text_file(dir / "plan.json"));
    store.m_plan = nlohmann::json::parse(plan_text, nullptr, false);
    if (store.m_plan.is_discarded() || !store.m_plan.is_object()) {
        return make_error(fmt::format("\"{}\" is not a pglab plan", (dir / "plan.json").string()));
    }
    const fs::path jsonl = dir / "results.jsonl";
    PGLAB_TRY_ASSIGN(JsonlContents contents, read_jsonl(jsonl));
    if (contents.torn) {
        log::warning("\"{}\": ignoring an incomplete last line (the run it belonged to runs again)",
                     jsonl.string());
        std::error_code ec;
        fs::resize_file(jsonl, contents.valid_bytes, ec);
        if (ec) {
            return make_error(
                fmt::format("could not truncate \"{}\": {}", jsonl.string(), ec.message()));
        }
    }
    for (const auto& line : contents.lines) {
        if (line.contains("run") && line["run"].is_number_unsigned()) {
            store.m_finished.insert(line["run"].get<std::size_t>());
        }
    }
    std::error_code ec;
    fs::create_directories(dir / "runs", ec);
    PGLAB_TRY(store.open_jsonl());
    return store;
}

Status ResultsStore::append(const nlohmann::json& line) {
    std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    text += '\n';
    const fs::path path = m_dir / "results.jsonl";
    PGLAB_TRY(write_all(m_fd, text, path));
    if (::fdatasync(m_fd) != 0) {
        return make_error(
            fmt::format("could not fsync file \"{}\": {}", path.string(), std::strerror(errno)));
    }
    if (line.contains("run") && line["run"].is_number_unsigned()) {
        m_finished.insert(line["run"].get<std::size_t>());
    }
    return {};
}

Result<fs::path> ResultsStore::run_dir(std::size_t ordinal) const {
    const fs::path dir = m_dir / "runs" / fmt::format("{:04}", ordinal);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        return make_error(
            fmt::format("could not create directory \"{}\": {}", dir.string(), ec.message()));
    }
    return dir;
}

std::string ResultsStore::relative(const fs::path& path) const {
    return path.lexically_relative(m_dir).generic_string();
}

void ResultsStore::copy_server_log(const std::string& server, int cluster,
                                   const fs::path& log_file) const {
    const fs::path dir = m_dir / "servers" / server;
    std::error_code ec;
    fs::create_directories(dir, ec);
    fs::copy_file(log_file, dir / fmt::format("{}-postgresql.log", cluster),
                  fs::copy_options::overwrite_existing, ec);
    if (ec) {
        log::warning("could not copy server log \"{}\": {}", log_file.string(), ec.message());
    }
}

} // namespace pglab::lab::store
