// lab/store: results directory, append-only results.jsonl with fsync, torn-line recovery.
#include "lab/store/results_store.hpp"

#include "lab/store/json_fields.hpp"
#include "lab/store/line_seal.hpp"
#include "util/log.hpp"
#include "util/output_file.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <optional>

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

/// Puts the complete `partial` directory at `dir`: renamed there whole, or, when `dir` is an
/// empty directory the user made (a mount point, one with permissions of its own), its entries
/// moved into it, so that their directory is never renamed over.
Status move_into_place(const fs::path& partial, const fs::path& dir) {
    struct stat st {};

    if (::lstat(dir.c_str(), &st) != 0) {
        if (::rename(partial.c_str(), dir.c_str()) != 0) {
            return make_error(fmt::format("could not rename \"{}\" to \"{}\": {}", partial.string(),
                                          dir.string(), std::strerror(errno)));
        }
        return {};
    }
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        return make_error(
            fmt::format("results directory \"{}\" exists and is not a directory", dir.string()));
    }
    std::error_code ec;
    std::vector<fs::path> moved;
    for (const auto& entry : fs::directory_iterator(partial, ec)) {
        const fs::path to = dir / entry.path().filename();
        if (::rename(entry.path().c_str(), to.c_str()) != 0) {
            const int err = errno;
            for (const fs::path& ours : moved) {
                fs::remove_all(ours, ec);
            }
            return make_error(fmt::format("could not move \"{}\" into \"{}\": {}",
                                          entry.path().string(), dir.string(), std::strerror(err)));
        }
        moved.push_back(to);
    }
    if (ec) {
        return make_error(
            fmt::format("could not read directory \"{}\": {}", partial.string(), ec.message()));
    }
    fs::remove(partial, ec);
    return {};
}

/// k of a server log named `resume<k>-<cluster>-postgresql.log` (both numbers), or nullopt.
std::optional<int> resume_of_log(std::string_view name) {
    constexpr std::string_view prefix = "resume";
    constexpr std::string_view suffix = "-postgresql.log";
    if (!name.starts_with(prefix) || !name.ends_with(suffix)) {
        return std::nullopt;
    }
    name = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    const std::size_t dash = name.find('-');
    const auto digits = [](std::string_view s) {
        return !s.empty()
               && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    int k = 0;
    if (dash == std::string_view::npos || !digits(name.substr(0, dash))
        || !digits(name.substr(dash + 1))
        || std::from_chars(name.data(), name.data() + dash, k).ec != std::errc()) {
        return std::nullopt;
    }
    return k;
}

/// The highest runner session whose server logs are under `dir`/servers: 1 (the session that
/// created the directory, whose logs are `<cluster>-postgresql.log`), or k + 1 for a log
/// `resume<k>-<cluster>-postgresql.log` of the k-th --resume.
int last_session(const fs::path& dir) {
    int last = 1;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir / "servers", ec), end; !ec && it != end;
         it.increment(ec)) {
        if (const auto k = resume_of_log(it->path().filename().string())) {
            last = std::max(last, *k + 1);
        }
    }
    return last;
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

ResultsStore::ResultsStore(ResultsStore&& other) noexcept
    : m_dir(std::move(other.m_dir)), m_plan(std::move(other.m_plan)),
      m_finished(std::move(other.m_finished)), m_fd(other.m_fd), m_lock_fd(other.m_lock_fd),
      m_session(other.m_session) {
    other.m_fd = -1;
    other.m_lock_fd = -1;
}

ResultsStore& ResultsStore::operator=(ResultsStore&& other) noexcept {
    if (this != &other) {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
        if (m_lock_fd >= 0) {
            ::close(m_lock_fd);
        }
        m_dir = std::move(other.m_dir);
        m_plan = std::move(other.m_plan);
        m_finished = std::move(other.m_finished);
        m_fd = other.m_fd;
        m_lock_fd = other.m_lock_fd;
        m_session = other.m_session;
        other.m_fd = -1;
        other.m_lock_fd = -1;
    }
    return *this;
}

ResultsStore::~ResultsStore() {
    if (m_fd >= 0) {
        ::close(m_fd);
    }
    if (m_lock_fd >= 0) {
        ::close(m_lock_fd); // releases the lock
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

Status ResultsStore::check_new(const fs::path& dir) {
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
        return make_error(
            fmt::format("results directory \"{}\" exists and is not a directory", dir.string()));
    }
    if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
        if (fs::exists(dir / ".lock", ec)) {
            ResultsStore other; // only to see whether a runner holds it (and name its pid)
            other.m_dir = dir;
            PGLAB_TRY(other.lock());
        }
        return make_error(
            Error(fmt::format("results directory \"{}\" already exists and is not empty",
                              dir.string()))
                .with_hint("choose another one with --results, or continue it with --resume"));
    }
    return {};
}

Result<ResultsStore> ResultsStore::create(const fs::path& dir, std::string_view experiment_text,
                                          const PlanRecord& plan) {
    PGLAB_TRY(check_new(dir));
    std::error_code ec;
    // Made complete under a temporary name beside `dir`, then renamed: a failure part-way (a
    // full disk) leaves no half-made results directory that would block a new run and --resume.
    const fs::path parent = dir.parent_path().empty() ? fs::path(".") : dir.parent_path();
    fs::create_directories(parent, ec);
    if (ec) {
        return make_error(
            fmt::format("could not create directory \"{}\": {}", parent.string(), ec.message()));
    }
    const fs::path partial =
        parent / fmt::format(".{}.partial-{}", dir.filename().string(), ::getpid());
    fs::remove_all(partial, ec);
    fs::create_directories(partial / "runs", ec);
    if (ec) {
        return make_error(
            fmt::format("could not create directory \"{}\": {}", partial.string(), ec.message()));
    }
    ResultsStore store;
    store.m_dir = partial;
    store.m_plan = plan;
    Status st = store.lock();
    if (st) {
        st = util::write_output_file(partial / "experiment.toml", experiment_text);
    }
    if (st) {
        st = util::write_output_file(partial / "plan.json", to_json(plan).dump(2) + "\n");
    }
    if (st) {
        st = move_into_place(partial, dir);
    }
    if (!st) {
        fs::remove_all(partial, ec);
        return make_error(st.error());
    }
    store.m_dir = dir;
    PGLAB_TRY(store.open_jsonl());
    util::fsync_directory(dir);
    util::fsync_directory(parent);
    return store;
}

Result<ResultsStore> ResultsStore::open(const fs::path& dir) {
    ResultsStore store;
    store.m_dir = dir;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        return make_error(fmt::format("results directory \"{}\" does not exist", dir.string()));
    }
    PGLAB_TRY(store.lock());
    PGLAB_TRY_ASSIGN(store.m_plan, read_plan(dir / "plan.json"));
    const fs::path jsonl = dir / "results.jsonl";
    PGLAB_TRY_ASSIGN(const ResultsFile contents, read_results(jsonl, &store.m_plan));
    for (const LineProblem& p : contents.problems) {
        log::warning("\"{}\" line {}: {}{}", jsonl.string(), p.line, p.what,
                     p.skipped ? "; the line is skipped (its run runs again)" : "");
    }
    if (contents.torn) {
        // New lines follow the complete ones.
        fs::resize_file(jsonl, contents.complete_bytes, ec);
        if (ec) {
            return make_error(
                fmt::format("could not truncate \"{}\": {}", jsonl.string(), ec.message()));
        }
    }
    for (const FinishedRun& run : contents.runs) {
        store.m_finished.insert(run.record.run);
    }
    fs::create_directories(dir / "runs", ec);
    store.m_session = last_session(dir) + 1;
    PGLAB_TRY(store.open_jsonl());
    return store;
}

Status ResultsStore::append(const nlohmann::json& line) {
    std::string text = sealed_text(line);
    text += '\n';
    const fs::path path = m_dir / "results.jsonl";
    const off_t before = ::lseek(m_fd, 0, SEEK_END);
    Status st = write_all(m_fd, text, path);
    if (st && ::fdatasync(m_fd) != 0) {
        st = make_error(
            fmt::format("could not fsync file \"{}\": {}", path.string(), std::strerror(errno)));
    }
    if (!st) {
        // No half line stays behind: what follows (a resumed plan) starts on a line boundary.
        if (before >= 0 && ::ftruncate(m_fd, before) == 0) {
            (void)::fdatasync(m_fd);
        }
        return st;
    }
    if (const auto run = fields::unsigned_integer(line, "run")) {
        m_finished.insert(*run);
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

fs::path ResultsStore::server_log(const std::string& server, int cluster) const {
    const fs::path dir = m_dir / "servers" / server;
    std::error_code ec;
    fs::create_directories(dir, ec);
    return dir
           / (m_session == 1 ? fmt::format("{}-postgresql.log", cluster)
                             : fmt::format("resume{}-{}-postgresql.log", m_session - 1, cluster));
}

void ResultsStore::copy_server_log(const std::string& server, int cluster,
                                   const fs::path& log_file) const {
    const fs::path target = server_log(server, cluster);
    std::error_code ec;
    if (fs::equivalent(log_file, target, ec)) {
        return;
    }
    fs::copy_file(log_file, target, fs::copy_options::overwrite_existing, ec);
    if (ec) {
        log::warning("could not copy server log \"{}\": {}", log_file.string(), ec.message());
    }
}

Status ResultsStore::lock() {
    const fs::path path = m_dir / ".lock";
    m_lock_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_lock_fd < 0) {
        return make_error(
            fmt::format("could not open file \"{}\": {}", path.string(), std::strerror(errno)));
    }
    if (::flock(m_lock_fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        std::string holder = "another process";
        char buf[32] = {};
        const ssize_t n = ::pread(m_lock_fd, buf, sizeof buf - 1, 0);
        long pid = 0;
        if (n > 0 && std::from_chars(buf, buf + n, pid).ec == std::errc() && pid > 0) {
            holder = fmt::format("pglab (pid {})", pid);
        }
        ::close(m_lock_fd);
        m_lock_fd = -1;
        if (err != EWOULDBLOCK) {
            return make_error(
                fmt::format("could not lock \"{}\": {}", path.string(), std::strerror(err)));
        }
        return make_error(
            Error(fmt::format("results directory \"{}\" is in use by {}", m_dir.string(), holder))
                .with_hint("wait until that run ends (or stop it), then continue with --resume"));
    }
    const std::string pid = fmt::format("{}\n", ::getpid());
    if (::ftruncate(m_lock_fd, 0) != 0 || ::pwrite(m_lock_fd, pid.data(), pid.size(), 0) < 0) {
        // The lock holds without the pid; only the message of a second runner is vaguer.
        log::warning("could not write \"{}\": {}", path.string(), std::strerror(errno));
    }
    return {};
}

Status ResultsStore::add_planned_runs(const std::vector<PlanRun>& runs) {
    PlanRecord plan = m_plan;
    plan.runs.insert(plan.runs.end(), runs.begin(), runs.end());
    PGLAB_TRY(util::write_output_file(m_dir / "plan.json", to_json(plan).dump(2) + "\n"));
    m_plan = std::move(plan);
    return {};
}

} // namespace pglab::lab::store
