// ThrowawayCluster: directory, initdb, settings file, server start/stop and removal.
#include "lab/server/throwaway_cluster.hpp"

#include "lab/server/cleanup_registry.hpp"
#include "lab/server/cluster_files.hpp"
#include "lab/server/server_settings.hpp"
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
    PGLAB_TRY(c.configure_archive());
    PGLAB_TRY(c.restore_from(primary));
    PGLAB_TRY(c.apply_settings(c.m_options.settings));
    PGLAB_TRY(c.start_server());
    return c;
}

Status ThrowawayCluster::configure_archive() {
    std::erase_if(m_settings, [](const auto& kv) {
        return kv.first == "archive_mode" || kv.first == "archive_command";
    });
    if (!m_options.archive) {
        return {};
    }
    const fs::path dir = archive_dir();
    PGLAB_TRY(make_directory(dir));
    PGLAB_TRY(chown_to(dir, m_run_as));
    set_setting(m_settings, "archive_mode", "on");
    // As the paper's: a plain copy, never over a segment already there.
    set_setting(m_settings, "archive_command",
                fmt::format("test ! -f \"{0}/%f\" && cp \"%p\" \"{0}/%f\"", dir.string()));
    return {};
}

Status ThrowawayCluster::restore_from(const ThrowawayCluster& primary) {
    const fs::path archive = primary.archive_dir();
    if (archive.empty()) {
        return {};
    }
    const std::string command = fmt::format("cp \"{}/%f\" \"%p\"", archive.string());
    constexpr int k_recovery_in_settings = 12; // recovery.conf's settings became GUCs
    if (m_installation.major >= k_recovery_in_settings) {
        set_setting(m_settings, "restore_command", command);
        return {};
    }
    const fs::path recovery = m_data_dir / "recovery.conf";
    PGLAB_TRY(write_file(recovery, fmt::format("restore_command = {}\n", quote_setting(command)),
                         std::ios::app));
    return chown_to(recovery, m_run_as);
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
    PGLAB_TRY(c.configure_archive());
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
    PGLAB_TRY(make_directory(m_socket_dir));
    std::error_code ec;
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
        // A fatal signal stops the server and removes the directory: the cgroup too; after a
        // SIGKILL, the next pglab that finds the directory stale (remove_stale_clusters).
        cleanup::set_cgroup_dir(m_slot, m_memory_cgroup->dir.string());
        PGLAB_TRY(write_file(m_base_dir / k_cgroup_file, m_memory_cgroup->dir.string() + "\n",
                             std::ios::trunc));
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
    // Immediate, as PostgreSQL's own test clusters are torn down: the directory goes next, so a
    // shutdown checkpoint would write and fsync pages nobody reads, and after a crash-restart a
    // fast shutdown first waits for the whole crash recovery (an fsync of every file in the data
    // directory): over 60 s on a machine busy writing.
    Status stopped = stop_server(ShutdownMode::immediate);
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

} // namespace pglab::lab::server
