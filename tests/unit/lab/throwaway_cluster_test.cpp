// lab/server: the throwaway cluster against the real installed PostgreSQL (skipped without one):
// start, query, settings, restart, and that every way of ending leaves no process or directory.
#include "lab/server/cleanup_registry.hpp"
#include "lab/server/throwaway_cluster.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace pglab::lab::server {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

#define SKIP_WITHOUT_POSTGRES()                                                                    \
    do {                                                                                           \
        if (!find_newest_installation()) {                                                         \
            GTEST_SKIP() << "no PostgreSQL installation";                                          \
        }                                                                                          \
    } while (false)

/// Pids of processes whose working directory is `dir` or below: the server and its backends
/// (PostgreSQL changes into its data directory).
std::vector<pid_t> processes_in(const fs::path& dir) {
    std::vector<pid_t> pids;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        std::error_code ec2;
        const std::string cwd = fs::read_symlink(entry.path() / "cwd", ec2).string();
        if (!ec2 && cwd.rfind(dir.string(), 0) == 0) {
            pids.push_back(std::stoi(name));
        }
    }
    return pids;
}

/// Waits up to 10 s until no process works in `dir`.
bool no_process_in(const fs::path& dir) {
    for (int i = 0; i < 500; ++i) {
        if (processes_in(dir).empty()) {
            return true;
        }
        std::this_thread::sleep_for(20ms);
    }
    return false;
}

bool pid_gone(pid_t pid) {
    for (int i = 0; i < 500; ++i) {
        if (::kill(pid, 0) != 0 && errno == ESRCH) {
            return true;
        }
        std::this_thread::sleep_for(20ms);
    }
    return false;
}

/// A private parent directory so that sweeping stale clusters touches nothing of others.
class ParentDir {
public:
    ParentDir() {
        char templ[] = "/tmp/pgl-test-XXXXXX";
        m_path = ::mkdtemp(templ);
        fs::permissions(m_path, fs::perms::all); // traversable by the server's OS user
    }

    ~ParentDir() { fs::remove_all(m_path); }

    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

ThrowawayCluster make_cluster(ClusterOptions o = {}) {
    auto c = ThrowawayCluster::create(std::move(o));
    if (!c) {
        ADD_FAILURE() << c.error().message << "\n" << c.error().detail;
        std::abort();
    }
    return std::move(*c);
}

TEST(InstallationTest, FindsNewestAndByMajor) {
    SKIP_WITHOUT_POSTGRES();
    auto newest = find_newest_installation();
    ASSERT_TRUE(newest.has_value());
    EXPECT_GE(newest->major, 11);
    auto same = find_installation(newest->major);
    ASSERT_TRUE(same.has_value());
    EXPECT_EQ(same->bin_dir, newest->bin_dir);
    EXPECT_FALSE(find_installation(3).has_value());
    EXPECT_FALSE(installation_at("/nonexistent").has_value());
    EXPECT_TRUE(fs::exists(newest->client_tool("psql")));
}

TEST(ThrowawayClusterTest, StartsQueriesAndRemoves) {
    SKIP_WITHOUT_POSTGRES();
    ThrowawayCluster c = make_cluster();
    EXPECT_TRUE(c.running());
    EXPECT_TRUE(fs::exists(c.socket_dir() / (".s.PGSQL." + std::to_string(c.port()))));
    EXPECT_TRUE(fs::exists(c.data_dir() / "PG_VERSION"));
    auto one = c.psql("SELECT 1");
    ASSERT_TRUE(one.has_value()) << one.error().message << one.error().detail;
    EXPECT_EQ(*one, "1\n");
    auto num = c.server_version_num();
    ASSERT_TRUE(num.has_value());
    EXPECT_EQ(*num / 10000, c.installation().major);
    EXPECT_EQ(*c.psql("SHOW listen_addresses"), "\n");
    EXPECT_EQ(*c.psql("SELECT current_user"), "postgres\n");
    EXPECT_NE(c.conninfo().find("port=" + std::to_string(c.port())), std::string::npos);

    const fs::path base = c.base_dir();
    const pid_t pid = c.server_pid();
    EXPECT_FALSE(processes_in(c.data_dir()).empty());
    ASSERT_TRUE(c.remove().has_value());
    EXPECT_FALSE(fs::exists(base));
    EXPECT_TRUE(pid_gone(pid));
    EXPECT_TRUE(no_process_in(base));
    EXPECT_TRUE(c.remove().has_value()); // idempotent
}

TEST(ThrowawayClusterTest, DestructorRemoves) {
    SKIP_WITHOUT_POSTGRES();
    fs::path base;
    pid_t pid = 0;
    {
        ThrowawayCluster c = make_cluster();
        base = c.base_dir();
        pid = c.server_pid();
    }
    EXPECT_FALSE(fs::exists(base));
    EXPECT_TRUE(pid_gone(pid));
}

TEST(ThrowawayClusterTest, SettingsReloadAndRestart) {
    SKIP_WITHOUT_POSTGRES();
    ClusterOptions o;
    o.settings = {{"work_mem", "7MB"}, {"log_line_prefix", "it's pglab "}};
    ThrowawayCluster c = make_cluster(o);
    EXPECT_EQ(*c.psql("SHOW work_mem"), "7MB\n");
    EXPECT_EQ(*c.psql("SHOW log_line_prefix"), "it's pglab \n");

    ASSERT_TRUE(c.apply_settings({{"work_mem", "9MB"}}).has_value());
    std::string seen;
    for (int i = 0; i < 100 && seen != "9MB\n"; ++i) {
        std::this_thread::sleep_for(50ms);
        seen = *c.psql("SHOW work_mem");
    }
    EXPECT_EQ(seen, "9MB\n");
    EXPECT_FALSE(c.apply_settings({{"port", "5432"}}).has_value());

    ASSERT_TRUE(c.psql("CREATE TABLE kept(x int); INSERT INTO kept VALUES (42)").has_value());
    ASSERT_TRUE(c.apply_settings({{"max_connections", "42"}}).has_value());
    const pid_t before = c.server_pid();
    ASSERT_TRUE(c.restart().has_value());
    EXPECT_NE(c.server_pid(), before);
    EXPECT_EQ(*c.psql("SHOW max_connections"), "42\n");
    EXPECT_EQ(*c.psql("SELECT x FROM kept"), "42\n");
}

TEST(ThrowawayClusterTest, BadSettingFailsWithTheServerLog) {
    SKIP_WITHOUT_POSTGRES();
    ParentDir parent;
    ClusterOptions o;
    o.parent_dir = parent.path();
    o.settings = {{"shared_buffers", "lots"}};
    auto c = ThrowawayCluster::create(o);
    ASSERT_FALSE(c.has_value());
    EXPECT_NE(c.error().message.find("while starting"), std::string::npos) << c.error().message;
    EXPECT_NE(c.error().detail.find("shared_buffers"), std::string::npos) << c.error().detail;
    EXPECT_TRUE(fs::is_empty(parent.path())); // the failed cluster removed its directory
}

TEST(ThrowawayClusterTest, ServerEnvironmentAndParentDirectory) {
    SKIP_WITHOUT_POSTGRES();
    ParentDir parent;
    ClusterOptions o;
    o.parent_dir = parent.path();
    o.major = find_newest_installation()->major;
    o.server_env = {{"PGLAB_STORAGE_MARK", "slow-disk"}};
    ThrowawayCluster c = make_cluster(o);
    EXPECT_EQ(c.base_dir().parent_path(), parent.path());
    std::ifstream environ_file("/proc/" + std::to_string(c.server_pid()) + "/environ");
    bool found = false;
    for (std::string entry; std::getline(environ_file, entry, '\0');) {
        found = found || entry == "PGLAB_STORAGE_MARK=slow-disk";
    }
    EXPECT_TRUE(found);
}

TEST(ThrowawayClusterTest, PsqlErrorCarriesTheMessage) {
    SKIP_WITHOUT_POSTGRES();
    ThrowawayCluster c = make_cluster();
    auto r = c.psql("SELECT * FROM no_such_table");
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().detail.find("no_such_table"), std::string::npos);
}

/// Forks a process that makes a cluster, reports its base dir and server pid, and waits.
struct Holder {
    pid_t pid = 0;
    fs::path base;
    pid_t server = 0;
    fs::path cgroup; ///< with a memory limit
};

Holder start_holder(const fs::path& parent,
                    std::optional<std::uint64_t> memory_limit = std::nullopt) {
    int fds[2];
    EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);
    Holder h;
    h.pid = ::fork();
    if (h.pid == 0) {
        ::close(fds[0]);
        ClusterOptions o;
        o.parent_dir = parent;
        o.memory_limit_bytes = memory_limit;
        auto c = ThrowawayCluster::create(o);
        if (!c) {
            ::_exit(3);
        }
        const std::string msg =
            c->base_dir().string() + "\n" + std::to_string(c->server_pid()) + "\n"
            + (c->memory_cgroup() ? c->memory_cgroup()->dir.string() : std::string());
        (void)!::write(fds[1], msg.data(), msg.size());
        ::close(fds[1]);
        for (;;) {
            ::pause();
        }
    }
    ::close(fds[1]);
    std::string msg;
    char buf[512];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) {
        msg.append(buf, static_cast<size_t>(n));
    }
    ::close(fds[0]);
    const size_t nl = msg.find('\n');
    const size_t nl2 = nl == std::string::npos ? nl : msg.find('\n', nl + 1);
    if (nl2 != std::string::npos) {
        h.base = msg.substr(0, nl);
        h.server = std::stoi(msg.substr(nl + 1, nl2 - nl - 1));
        h.cgroup = msg.substr(nl2 + 1);
    }
    return h;
}

class SignalTest : public ::testing::TestWithParam<int> {};

TEST_P(SignalTest, FatalSignalToTheOwnerLeavesNothingBehind) {
    SKIP_WITHOUT_POSTGRES();
    ParentDir parent;
    ThrowawayCluster ours = make_cluster(); // inherited by the holder, which must not touch it
    const Holder h = start_holder(parent.path());
    ASSERT_GT(h.server, 0) << "holder could not start a cluster";
    ASSERT_TRUE(fs::exists(h.base / "data"));
    ::kill(h.pid, GetParam());
    int status = 0;
    ASSERT_EQ(::waitpid(h.pid, &status, 0), h.pid);
    EXPECT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), GetParam());
    EXPECT_TRUE(pid_gone(h.server));
    EXPECT_TRUE(no_process_in(h.base));
    EXPECT_FALSE(fs::exists(h.base));
    EXPECT_EQ(*ours.psql("SELECT 1"), "1\n");
}

INSTANTIATE_TEST_SUITE_P(Signals, SignalTest, ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const auto& param_info) {
                             return std::string(sigabbrev_np(param_info.param));
                         });

TEST(MemoryLimit, AFatalSignalToTheOwnerRemovesTheCgroupToo) {
    SKIP_WITHOUT_POSTGRES();
    if (const Status ok = MemoryCgroup::check_available(); !ok) {
        GTEST_SKIP() << ok.error().message;
    }
    ParentDir parent;
    const Holder h = start_holder(parent.path(), 128ULL << 20);
    ASSERT_GT(h.server, 0) << "holder could not start a cluster";
    ASSERT_FALSE(h.cgroup.empty());
    EXPECT_TRUE(fs::exists(h.cgroup));
    ::kill(h.pid, SIGTERM);
    int status = 0;
    ASSERT_EQ(::waitpid(h.pid, &status, 0), h.pid);
    EXPECT_TRUE(pid_gone(h.server));
    EXPECT_FALSE(fs::exists(h.base));
    EXPECT_FALSE(fs::exists(h.cgroup));
}

TEST(ThrowawayClusterTest, SigkilledOwnerLeavesNoServerAndTheNextRunSweeps) {
    SKIP_WITHOUT_POSTGRES();
    ParentDir parent;
    const Holder h = start_holder(parent.path());
    ASSERT_GT(h.server, 0);
    ::kill(h.pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(h.pid, &status, 0), h.pid);
    EXPECT_TRUE(pid_gone(h.server)); // the parent-death signal stopped it
    EXPECT_TRUE(no_process_in(h.base));
    EXPECT_TRUE(fs::exists(h.base)); // nothing could remove it...
    remove_stale_clusters(parent.path());
    EXPECT_FALSE(fs::exists(h.base)); // ...until the next run sweeps
}

TEST(CleanupRegistryTest, RemoveTree) {
    ParentDir parent;
    const fs::path top = parent.path() / "t";
    fs::create_directories(top / "a" / "b" / "c");
    for (int i = 0; i < 300; ++i) {
        std::ofstream(top / "a" / ("file" + std::to_string(i))) << "x";
    }
    fs::create_symlink("/etc", top / "a" / "b" / "link");
    EXPECT_TRUE(cleanup::remove_tree(top.c_str()));
    EXPECT_FALSE(fs::exists(top));
    EXPECT_TRUE(fs::exists("/etc/passwd"));
}

} // namespace
} // namespace pglab::lab::server
