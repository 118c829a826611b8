// ThrowawayCluster: directory, initdb, settings file, server start/stop and removal.
#include "lab/server/throwaway_cluster.hpp"

#include "lab/server/cleanup_registry.hpp"
#include "lab/server/sync_delay.hpp"
#include "util/log.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

namespace pglab::lab::server {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_settings_file = "pglab.conf";
constexpr const char* k_owner_file = "pglab.owner";
constexpr size_t k_max_socket_path = 100; // sun_path is 108 bytes, with ".s.PGSQL.NNNNN"
constexpr std::chrono::seconds k_quit_wait{10};

fs::path default_parent_dir() {
    const char* tmp = std::getenv("TMPDIR");
    return tmp != nullptr && *tmp != '\0' ? fs::path(tmp) : fs::path("/tmp");
}

/// A port that was free on 127.0.0.1 a moment ago (the kernel's choice for port 0).
Result<int> free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return make_error(fmt::format("could not create socket: {}", std::strerror(errno)));
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0
                    && ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
    const int err = errno;
    ::close(fd);
    if (!ok) {
        return make_error(fmt::format("could not find a free port: {}", std::strerror(err)));
    }
    return static_cast<int>(ntohs(addr.sin_port));
}

std::string tail_lines(const std::string& text, int lines) {
    size_t pos = text.size();
    if (pos > 0 && text[pos - 1] == '\n') {
        --pos;
    }
    for (int i = 0; i < lines && pos != std::string::npos && pos > 0; ++i) {
        pos = text.rfind('\n', pos - 1);
    }
    return pos == std::string::npos || pos == 0 ? text : text.substr(pos + 1);
}

Status write_file(const fs::path& path, const std::string& text, std::ios::openmode mode) {
    std::ofstream out(path, std::ios::binary | mode);
    out << text;
    out.close();
    if (!out) {
        return make_error(fmt::format("could not write \"{}\"", path.string()));
    }
    return {};
}

Status chown_to(const fs::path& path, const std::optional<util::RunAs>& who) {
    if (who && ::chown(path.c_str(), who->uid, who->gid) != 0) {
        return make_error(fmt::format("could not change owner of \"{}\" to \"{}\": {}",
                                      path.string(), who->name, std::strerror(errno)));
    }
    return {};
}

/// Line 8 of postmaster.pid (PostgreSQL 10+) says "ready" once connections are accepted.
/// Whether postmaster.pid says that the postmaster `pid` accepts connections. The pid matters:
/// a server that was killed leaves its file saying "ready" until the next one rewrites it.
bool postmaster_ready(const fs::path& data_dir, pid_t pid) {
    std::ifstream in(data_dir / "postmaster.pid");
    std::string line;
    std::string first;
    for (int i = 0; i < 8 && std::getline(in, line); ++i) {
        if (i == 0) {
            first = line;
        }
    }
    return in && line.rfind("ready", 0) == 0 && first == std::to_string(pid);
}

/// "pid:[4026531836]": which pid namespace the pids in the owner file belong to.
std::string pid_namespace() {
    std::error_code ec;
    const fs::path ns = fs::read_symlink("/proc/self/ns/pid", ec);
    return ec ? std::string("unknown") : ns.string();
}

Result<util::RunAs> pick_os_user(const std::string& wanted) {
    if (!wanted.empty()) {
        return util::lookup_user(wanted);
    }
    auto pg = util::lookup_user("postgres");
    if (pg) {
        return pg;
    }
    return util::lookup_user("nobody");
}

/// `cp -a`, as ourselves: as root it keeps the server user's ownership of every file.
bool copy_tree(const fs::path& from, const fs::path& to) {
    util::SpawnOptions o;
    o.argv = {"cp", "-a", from.string(), to.string()};
    o.output = util::Output::discard;
    const auto r = util::run_process(o);
    return r && r->status.success();
}

/// A tool's run that ended well; else an error `TOOL <how it ended>[ (timed out)]` with the last
/// lines of its output.
Status tool_succeeded(std::string_view tool, const util::ProcessResult& r) {
    if (r.status.success()) {
        return {};
    }
    return make_error(
        Error(fmt::format("{} {}{}", tool, r.status.describe(), r.timed_out ? " (timed out)" : ""))
            .with_detail(tail_lines(r.out + r.err, 15)));
}

} // namespace

Status ThrowawayCluster::find_installation_and_user() {
    if (!m_options.bin_dir.empty()) {
        PGLAB_TRY_ASSIGN(m_installation, installation_at(m_options.bin_dir));
    } else if (m_options.major) {
        PGLAB_TRY_ASSIGN(m_installation, find_installation(*m_options.major));
    } else {
        PGLAB_TRY_ASSIGN(m_installation, find_newest_installation());
    }
    if (::geteuid() == 0) {
        PGLAB_TRY_ASSIGN(m_run_as, pick_os_user(m_options.os_user));
    }
    if (m_options.parent_dir.empty()) {
        m_options.parent_dir = default_parent_dir();
    }
    return {};
}

Result<ThrowawayCluster> ThrowawayCluster::create_standby(ClusterOptions options,
                                                          const ThrowawayCluster& primary) {
    ThrowawayCluster c;
    c.m_options = std::move(options);
    PGLAB_TRY(c.find_installation_and_user());
    PGLAB_TRY(c.make_directories());
    PGLAB_TRY(c.prepare_emulation());
    PGLAB_TRY(c.run_basebackup(primary));
    PGLAB_TRY_ASSIGN(c.m_port, free_port());
    // The copy's postgresql.conf includes pglab.conf already: rewrite it with the primary's
    // settings (a hot standby needs max_connections and the like at least as high), this
    // cluster's port and socket, then the standby's own settings.
    c.m_settings = primary.m_settings;
    set_setting(c.m_settings, "port", std::to_string(c.m_port));
    set_setting(c.m_settings, "unix_socket_directories", c.m_socket_dir.string());
    PGLAB_TRY(c.apply_settings(c.m_options.settings));
    PGLAB_TRY(c.start_server());
    return c;
}

Status ThrowawayCluster::run_basebackup(const ThrowawayCluster& primary) {
    std::vector<std::string> argv = {m_installation.client_tool("pg_basebackup").string(),
                                     "-D",
                                     m_data_dir.string(),
                                     "-R",
                                     "-X",
                                     "stream",
                                     "-c",
                                     "fast",
                                     "--no-sync",
                                     "-h",
                                     primary.socket_dir().string(),
                                     "-p",
                                     std::to_string(primary.port()),
                                     "-U",
                                     primary.user()};
    util::SpawnOptions o = server_spawn_options(argv);
    o.env.clear();
    if (!primary.password().empty()) {
        o.env.emplace_back("PGPASSWORD", primary.password());
    }
    log::debug("running {}", util::quote_command(argv));
    PGLAB_TRY_ASSIGN(const util::ProcessResult r, util::run_process(o));
    PGLAB_TRY(tool_succeeded("pg_basebackup", r));
    return {};
}

Result<ThrowawayCluster> ThrowawayCluster::create(ClusterOptions options) {
    ThrowawayCluster c;
    c.m_options = std::move(options);
    PGLAB_TRY(c.find_installation_and_user());
    remove_stale_clusters(c.m_options.parent_dir);
    PGLAB_TRY(c.make_directories());
    PGLAB_TRY(c.prepare_emulation());
    PGLAB_TRY(c.run_initdb());
    PGLAB_TRY_ASSIGN(c.m_port, free_port());
    set_setting(c.m_settings, "listen_addresses", "");
    set_setting(c.m_settings, "port", std::to_string(c.m_port));
    set_setting(c.m_settings, "unix_socket_directories", c.m_socket_dir.string());
    PGLAB_TRY(c.apply_settings(c.m_options.settings));
    PGLAB_TRY(c.write_file_include());
    PGLAB_TRY(c.start_server());
    return c;
}

Status ThrowawayCluster::make_directories() {
    std::string templ = (m_options.parent_dir / "pglab-XXXXXX").string();
    if (templ.size() + std::strlen("/socket/.s.PGSQL.65535.lock") > k_max_socket_path) {
        return make_error(Error(fmt::format("directory \"{}\" is too long for a unix socket path",
                                            m_options.parent_dir.string()))
                              .with_hint("Set TMPDIR to a shorter directory."));
    }
    if (::mkdtemp(templ.data()) == nullptr) {
        return make_error(fmt::format("could not create a temporary directory in \"{}\": {}",
                                      m_options.parent_dir.string(), std::strerror(errno)));
    }
    m_base_dir = templ;
    PGLAB_TRY_ASSIGN(m_slot, cleanup::register_dir(m_base_dir.string()));
    m_data_dir = m_base_dir / "data";
    m_socket_dir = m_base_dir / "socket";
    m_log_path = m_options.log_path.empty() ? m_base_dir / "server.log" : m_options.log_path;
    std::error_code ec;
    fs::create_directory(m_socket_dir, ec);
    if (ec) {
        return make_error(fmt::format("could not create directory \"{}\": {}",
                                      m_socket_dir.string(), ec.message()));
    }
    fs::permissions(m_socket_dir, fs::perms::owner_all, ec);
    PGLAB_TRY(write_file(m_base_dir / k_owner_file,
                         fmt::format("{} {}\n", ::getpid(), pid_namespace()), std::ios::trunc));
    PGLAB_TRY(chown_to(m_base_dir, m_run_as));
    PGLAB_TRY(chown_to(m_socket_dir, m_run_as));
    return {};
}

util::SpawnOptions ThrowawayCluster::server_spawn_options(std::vector<std::string> argv) const {
    util::SpawnOptions o;
    o.argv = std::move(argv);
    o.run_as = m_run_as;
    o.working_dir = m_base_dir.string();
    // Variables that would redirect the server or its tools elsewhere.
    o.unset_env = {"PGDATA", "PGPORT", "PGHOST", "PGUSER", "PGDATABASE", "PGOPTIONS", "PGSERVICE"};
    o.env = m_options.server_env;
    o.timeout = m_options.timeout;
    return o;
}

fs::path ThrowawayCluster::initdb_cache_entry() const {
    if (m_options.initdb_cache_dir.empty() || !m_options.password.empty()) {
        return {};
    }
    // Everything initdb's output depends on, but the data directory's own path.
    std::string key =
        fmt::format("{}\n{}\n{}\n{}", m_installation.bin_dir.string(), m_installation.version,
                    m_options.superuser, m_run_as ? m_run_as->name : std::string());
    for (const auto& a : m_options.initdb_args) {
        key += "\n" + a;
    }
    return m_options.initdb_cache_dir
           / fmt::format("{}-{:016x}", m_installation.major, std::hash<std::string>{}(key));
}

bool ThrowawayCluster::copy_from_initdb_cache(const fs::path& entry) {
    std::error_code ec;
    if (!fs::is_directory(entry, ec)) {
        return false;
    }
    if (copy_tree(entry, m_data_dir)) {
        log::debug("copied initdb's output from \"{}\"", entry.string());
        return true;
    }
    fs::remove_all(m_data_dir, ec); // a partial copy; initdb makes it anew
    return false;
}

void ThrowawayCluster::keep_in_initdb_cache(const fs::path& entry) {
    // Copied under a name of our own, then renamed: a concurrent reader never sees half an entry.
    std::error_code ec;
    fs::create_directories(entry.parent_path(), ec);
    const fs::path partial = entry.string() + fmt::format(".partial-{}", ::getpid());
    if (copy_tree(m_data_dir, partial)) {
        fs::rename(partial, entry, ec);
    }
    fs::remove_all(partial, ec); // left only when another process was first
}

Status ThrowawayCluster::run_initdb() {
    const fs::path cache_entry = initdb_cache_entry();
    if (!cache_entry.empty() && copy_from_initdb_cache(cache_entry)) {
        return {};
    }
    const bool scram = !m_options.password.empty();
    const fs::path pwfile = m_base_dir / "initdb.pw";
    std::vector<std::string> argv = {m_installation.tool("initdb").string(),
                                     "-D",
                                     m_data_dir.string(),
                                     "-A",
                                     scram ? "scram-sha-256" : "trust",
                                     "-U",
                                     m_options.superuser,
                                     "-E",
                                     "UTF8",
                                     "--locale=C",
                                     "--no-sync"};
    if (scram) {
        // The password reaches initdb in a file only its user reads, removed once it ran.
        PGLAB_TRY(write_file(pwfile, m_options.password + "\n", std::ios::trunc));
        std::error_code ec;
        fs::permissions(pwfile, fs::perms::owner_read | fs::perms::owner_write, ec);
        PGLAB_TRY(chown_to(pwfile, m_run_as));
        argv.push_back("--pwfile=" + pwfile.string());
    }
    argv.insert(argv.end(), m_options.initdb_args.begin(), m_options.initdb_args.end());
    util::SpawnOptions o = server_spawn_options(argv);
    o.env.clear(); // the server environment (LD_PRELOAD...) is for the server only
    log::debug("running {}", util::quote_command(argv));
    auto run = util::run_process(o);
    if (scram) {
        std::error_code ec;
        fs::remove(pwfile, ec);
    }
    if (!run && m_run_as) {
        // Either the binaries (a release cache made 0700) or the data directory may be out of
        // that user's reach; the message says which path failed.
        run.error().with_hint(fmt::format(
            "As root, initdb and the server run as \"{}\", who must reach the binaries in \"{}\" "
            "and the data in \"{}\": every directory above them must be open to that user "
            "(chmod o+x), or set PGLAB_CACHE_DIR (fetched releases) and TMPDIR (data) to such "
            "directories, as /var/cache/pglab and /tmp are.",
            m_run_as->name, m_installation.bin_dir.string(), m_base_dir.string()));
    }
    PGLAB_TRY_ASSIGN(const util::ProcessResult r, std::move(run));
    PGLAB_TRY(tool_succeeded("initdb", r));
    if (!cache_entry.empty()) {
        keep_in_initdb_cache(cache_entry);
    }
    return {};
}

Status ThrowawayCluster::write_file_include() {
    return write_file(m_data_dir / "postgresql.conf",
                      fmt::format("\ninclude '{}'\n", k_settings_file), std::ios::app);
}

Status ThrowawayCluster::write_settings() {
    PGLAB_TRY_ASSIGN(const std::string text, render_settings(m_settings));
    const fs::path path = m_data_dir / k_settings_file;
    PGLAB_TRY(write_file(path, text, std::ios::trunc));
    return chown_to(path, m_run_as);
}

Status ThrowawayCluster::apply_settings(const Settings& settings) {
    for (const auto& [name, value] : settings) {
        if (name == "port" || name == "unix_socket_directories" || name == "data_directory") {
            return make_error(
                fmt::format("setting \"{}\" is chosen by the throwaway cluster", name));
        }
    }
    for (const auto& [name, value] : settings) {
        set_setting(m_settings, name, value);
    }
    PGLAB_TRY(write_settings());
    if (m_server.pid() > 0) {
        m_server.send_signal(SIGHUP);
    }
    return {};
}

Status ThrowawayCluster::start_server() {
    if (m_server.pid() > 0) {
        return {};
    }
    util::SpawnOptions o =
        server_spawn_options({m_installation.tool("postgres").string(), "-D", m_data_dir.string()});
    o.output = util::Output::file;
    o.output_path = m_log_path.string();
    // Its own process group: a terminal's Ctrl-C reaches only us, and we stop it in order.
    o.group = util::ProcessGroup::own;
    if (m_options.stop_with_parent == StopWithParent::yes) {
        o.parent_death_signal = SIGQUIT;
    }
    if (!m_sync_library.empty()) {
        std::string ld_preload;
        for (const auto& [name, value] : o.env) {
            ld_preload = name == "LD_PRELOAD" ? value : ld_preload;
        }
        std::erase_if(o.env, [](const auto& kv) { return kv.first == "LD_PRELOAD"; });
        for (auto& kv : sync_delay_environment(m_sync_library, m_sync_counts_file,
                                               *m_options.sync_delay, ld_preload)) {
            o.env.push_back(std::move(kv));
        }
    }
    if (m_memory_cgroup) {
        o.cgroup_procs_path = m_memory_cgroup->procs_file().string();
    }
    PGLAB_TRY_ASSIGN(m_server, util::ChildProcess::start(o));
    cleanup::set_server_pid(m_slot, m_server.pid());
    PGLAB_TRY(wait_until_ready());
    if (!m_sync_library.empty() && !has_library_mapped(m_server.pid(), m_sync_library)) {
        const std::string log = log_tail();
        (void)stop_server();
        return make_error(
            Error(fmt::format("sync_delay: the server runs without the preload library \"{}\"",
                              m_sync_library.string()))
                .with_detail(log)
                .with_hint("the server's user must be able to read the library and every "
                           "directory above it"));
    }
    return {};
}

Status ThrowawayCluster::prepare_emulation() {
    if (m_options.sync_delay) {
        if (m_options.sync_delay_library.empty()) {
            PGLAB_TRY_ASSIGN(m_sync_library, find_sync_delay_library());
        } else {
            m_sync_library = m_options.sync_delay_library;
        }
        m_sync_counts_file = m_base_dir / "sync-counts";
        PGLAB_TRY(create_sync_counts_file(m_sync_counts_file, *m_options.sync_delay));
        PGLAB_TRY(chown_to(m_sync_counts_file, m_run_as));
    }
    if (m_options.memory_limit_bytes) {
        PGLAB_TRY_ASSIGN(m_memory_cgroup, MemoryCgroup::create(m_base_dir.filename().string(),
                                                               *m_options.memory_limit_bytes));
        // A fatal signal stops the server and removes the directory: the cgroup too.
        cleanup::set_cgroup_dir(m_slot, m_memory_cgroup->dir.string());
    }
    return {};
}

namespace {

/// Ends what is left of a server whose postmaster ended on its own (killed, crashed): its other
/// processes (checkpointer, walwriter, backends) share the postmaster's process group and keep its
/// shared memory until they notice, and a new postmaster on the same data refuses to start beside
/// them ("pre-existing shared memory block is still in use"). Waits, at most `timeout`, until the
/// group is empty.
void end_leftover_processes(pid_t group, std::chrono::seconds timeout) {
    if (group <= 0 || ::kill(-group, SIGKILL) != 0) {
        return; // none left
    }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (::kill(-group, 0) == 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

} // namespace

std::optional<util::ExitStatus> ThrowawayCluster::reap_if_exited(std::chrono::milliseconds wait) {
    const pid_t postmaster = m_server.pid(); // its process group too (start_server)
    if (postmaster <= 0) {
        return std::nullopt;
    }
    auto st = m_server.wait(wait);
    if (st) {
        cleanup::set_server_pid(m_slot, 0);
        end_leftover_processes(postmaster, m_options.timeout);
    }
    return st;
}

Status ThrowawayCluster::wait_until_ready() {
    const auto deadline = std::chrono::steady_clock::now() + m_options.timeout;
    while (!postmaster_ready(m_data_dir, m_server.pid())) {
        if (const auto st = m_server.try_wait()) {
            cleanup::set_server_pid(m_slot, 0);
            return make_error(
                Error(fmt::format("the PostgreSQL server {} while starting", st->describe()))
                    .with_detail(log_tail()));
        }
        if (std::chrono::steady_clock::now() > deadline) {
            stop_server();
            return make_error(Error(fmt::format("the PostgreSQL server did not start within {} s",
                                                m_options.timeout.count()))
                                  .with_detail(log_tail()));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return {};
}

Status ThrowawayCluster::stop_server(ShutdownMode mode) {
    if (m_server.pid() <= 0) {
        return {};
    }
    // The postmaster's signals for pg_ctl's -m smart, fast and immediate.
    const int signal = mode == ShutdownMode::smart  ? SIGTERM
                       : mode == ShutdownMode::fast ? SIGINT
                                                    : SIGQUIT;
    m_server.send_signal(signal);
    std::optional<util::ExitStatus> st = m_server.wait(m_options.timeout);
    if (!st) {
        m_server.send_signal(SIGQUIT); // immediate shutdown
        st = m_server.wait(k_quit_wait);
    }
    if (!st) {
        m_server.send_signal(SIGKILL);
        st = m_server.wait(std::nullopt);
    }
    cleanup::set_server_pid(m_slot, 0);
    // After an immediate shutdown the postmaster may exit with 1 (children it had to SIGKILL on a
    // loaded machine, say); pg_ctl -m immediate only waits for it to be gone, and so do we.
    const bool gone_as_asked = mode == ShutdownMode::immediate && st->exited();
    if (!st->success() && !gone_as_asked) {
        return make_error(
            Error(fmt::format("the PostgreSQL server {} when stopped", st->describe()))
                .with_detail(log_tail()));
    }
    return {};
}

Status ThrowawayCluster::promote() {
    if (m_server.pid() <= 0) {
        return make_error("the PostgreSQL server is not running");
    }
    std::vector<std::string> argv = {m_installation.tool("pg_ctl").string(),
                                     "promote",
                                     "-w",
                                     "-t",
                                     std::to_string(m_options.timeout.count()),
                                     "-D",
                                     m_data_dir.string()};
    util::SpawnOptions o = server_spawn_options(argv);
    o.env.clear(); // the server environment (LD_PRELOAD...) is for the server only
    // pg_ctl gives up after -t seconds by itself; the margin only catches a pg_ctl that hangs.
    o.timeout = m_options.timeout + std::chrono::seconds(10);
    log::debug("running {}", util::quote_command(argv));
    PGLAB_TRY_ASSIGN(const util::ProcessResult r, util::run_process(o));
    PGLAB_TRY(tool_succeeded("pg_ctl promote", r));
    return {};
}

Status ThrowawayCluster::restart(ShutdownMode mode) {
    PGLAB_TRY(stop_server(mode));
    return start_server();
}

Status ThrowawayCluster::remove() {
    if (m_slot < 0) {
        return {};
    }
    Status stopped = stop_server();
    if (m_memory_cgroup) {
        if (const Status s = m_memory_cgroup->remove(); !s && stopped) {
            stopped = s;
        }
        m_memory_cgroup.reset();
    }
    std::error_code ec;
    fs::remove_all(m_base_dir, ec);
    if (ec) {
        cleanup::remove_tree(m_base_dir.c_str());
    }
    cleanup::unregister(m_slot);
    m_slot = -1;
    if (fs::exists(m_base_dir, ec)) {
        return make_error(fmt::format("could not remove directory \"{}\"", m_base_dir.string()));
    }
    return stopped;
}

ThrowawayCluster::ThrowawayCluster(ThrowawayCluster&& other) noexcept
    : m_options(std::move(other.m_options)), m_installation(std::move(other.m_installation)),
      m_settings(std::move(other.m_settings)), m_run_as(std::move(other.m_run_as)),
      m_base_dir(std::move(other.m_base_dir)), m_data_dir(std::move(other.m_data_dir)),
      m_socket_dir(std::move(other.m_socket_dir)), m_log_path(std::move(other.m_log_path)),
      m_port(other.m_port), m_sync_library(std::move(other.m_sync_library)),
      m_sync_counts_file(std::move(other.m_sync_counts_file)),
      m_memory_cgroup(std::exchange(other.m_memory_cgroup, std::nullopt)),
      m_slot(std::exchange(other.m_slot, -1)), m_server(std::move(other.m_server)) {}

ThrowawayCluster& ThrowawayCluster::operator=(ThrowawayCluster&& other) noexcept {
    if (this != &other) {
        remove();
        m_options = std::move(other.m_options);
        m_installation = std::move(other.m_installation);
        m_settings = std::move(other.m_settings);
        m_run_as = std::move(other.m_run_as);
        m_base_dir = std::move(other.m_base_dir);
        m_data_dir = std::move(other.m_data_dir);
        m_socket_dir = std::move(other.m_socket_dir);
        m_log_path = std::move(other.m_log_path);
        m_port = other.m_port;
        m_sync_library = std::move(other.m_sync_library);
        m_sync_counts_file = std::move(other.m_sync_counts_file);
        m_memory_cgroup = std::exchange(other.m_memory_cgroup, std::nullopt);
        m_slot = std::exchange(other.m_slot, -1);
        m_server = std::move(other.m_server);
    }
    return *this;
}

ThrowawayCluster::~ThrowawayCluster() {
    if (const Status s = remove(); !s) {
        log::warning("{}", s.error().message);
    }
}

std::string ThrowawayCluster::conninfo(const std::string& dbname) const {
    return fmt::format("host={} port={} user={} dbname={}", quote_setting(m_socket_dir.string()),
                       m_port, quote_setting(user()), quote_setting(dbname));
}

std::vector<std::pair<std::string, std::string>>
ThrowawayCluster::client_env(const std::string& dbname) const {
    std::vector<std::pair<std::string, std::string>> env = {{"PGHOST", m_socket_dir.string()},
                                                            {"PGPORT", std::to_string(m_port)},
                                                            {"PGUSER", user()},
                                                            {"PGDATABASE", dbname}};
    if (!password().empty()) {
        env.emplace_back("PGPASSWORD", password());
    }
    return env;
}

Result<std::string> ThrowawayCluster::psql(const std::string& sql,
                                           const std::string& dbname) const {
    util::SpawnOptions o;
    o.argv = {m_installation.client_tool("psql").string(),
              "-X",
              "-A",
              "-t",
              "-q",
              "-v",
              "ON_ERROR_STOP=1",
              "-h",
              m_socket_dir.string(),
              "-p",
              std::to_string(m_port),
              "-U",
              user(),
              "-d",
              dbname,
              "-f",
              "-"};
    o.stdin_text = sql;
    o.unset_env = {"PGOPTIONS", "PGSERVICE", "PGSERVICEFILE", "PSQLRC"};
    if (!password().empty()) {
        o.env.emplace_back("PGPASSWORD", password());
    }
    o.timeout = m_options.timeout;
    PGLAB_TRY_ASSIGN(const util::ProcessResult r, util::run_process(o));
    if (!r.status.success()) {
        return make_error(Error(fmt::format("psql {}", r.status.describe())).with_detail(r.err));
    }
    return r.out;
}

Result<int> ThrowawayCluster::server_version_num() const {
    PGLAB_TRY_ASSIGN(const std::string out, psql("SHOW server_version_num"));
    return std::atoi(out.c_str());
}

std::string ThrowawayCluster::log_tail(int lines) const {
    auto text = util::read_text_file(m_log_path);
    return text ? tail_lines(*text, lines) : std::string();
}

void remove_stale_clusters(const fs::path& parent_dir) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(parent_dir, ec)) {
        if (entry.path().filename().string().rfind("pglab-", 0) != 0) {
            continue;
        }
        std::ifstream owner(entry.path() / k_owner_file);
        std::ifstream postmaster(entry.path() / "data" / "postmaster.pid");
        pid_t owner_pid = 0;
        pid_t server_pid = 0;
        std::string owner_namespace;
        // Pids mean something only in our pid namespace (another container may share /tmp).
        if (!(owner >> owner_pid >> owner_namespace) || owner_pid <= 0
            || owner_namespace != pid_namespace()) {
            continue;
        }
        postmaster >> server_pid;
        const auto gone = [](pid_t p) { return p <= 0 || (::kill(p, 0) != 0 && errno == ESRCH); };
        if (gone(owner_pid) && gone(server_pid)) {
            cleanup::remove_tree(entry.path().c_str());
        }
    }
}

} // namespace pglab::lab::server
