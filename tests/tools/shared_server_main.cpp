// pglab_test_shared_server: the holder of a server that several test cases share
// (support/shared_server.hpp), run by the CTest fixture's setup and cleanup cases.
//
//   pglab_test_shared_server start NAME   starts the server and its template database, writes
//                                          PGLAB_TEST_SHARED_DIR/NAME.server.json, and returns
//                                          once they are ready, leaving a holder process behind
//   pglab_test_shared_server stop NAME    ends that holder, which stops the server and removes
//                                          its directory, and removes the state file
//
// The holder also ends when the ctest that started it ends (a Ctrl-C, a timeout of the whole
// run): the fixture's cleanup does not run then, and no server may be left behind.
#include "lab/server/throwaway_cluster.hpp"
#include "support/run_command.hpp"
#include "support/shared_server.hpp"
#include "support/test_server.hpp"
#include "util/log.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;
namespace server = pglab::lab::server;

/// A file descriptor that becomes readable when process `pid` ends; -1 when it cannot be had.
int pid_fd(pid_t pid) {
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

/// Waits until `pid` ends, at most `timeout_ms` (-1: no limit). True when it has ended.
bool wait_for_end(pid_t pid, int timeout_ms) {
    const int fd = pid_fd(pid);
    if (fd < 0) {
        return errno == ESRCH; // already gone
    }
    pollfd p{fd, POLLIN, 0};
    int n = 0;
    do {
        n = ::poll(&p, 1, timeout_ms);
    } while (n < 0 && errno == EINTR);
    ::close(fd);
    return n > 0;
}

/// The holder, in the daemon: the server, its template database, the state file; then waits
/// for SIGTERM (the cleanup registry stops the server and removes its directory) or for `ctest`
/// to end (the cluster's destructor does the same). Writes one byte to `ready` once the state
/// file is written.
int hold(const fs::path& state, pid_t ctest, int ready) {
    auto cluster = server::ThrowawayCluster::create(support::cluster_options());
    if (!cluster) {
        pglab::log::print(cluster.error());
        return 1;
    }
    const std::string tmpl = support::k_shared_template_database;
    if (auto made = cluster->psql("create database " + tmpl); !made) {
        std::fprintf(stderr, "%s\n%s\n", made.error().message.c_str(), made.error().detail.c_str());
        return 1;
    }
    const support::CommandResult init = support::init_pgbench_tables(cluster->client_env(tmpl));
    if (init.exit_code != 0) {
        std::fprintf(stderr, "pgbench -i: %s\n", support::describe(init).c_str());
        return 1;
    }
    support::SharedServer shared;
    shared.holder_pid = ::getpid();
    shared.socket_dir = cluster->socket_dir();
    shared.port = cluster->port();
    shared.user = cluster->user();
    shared.psql = cluster->installation().client_tool("psql");
    shared.template_database = tmpl;
    if (auto written = support::write_shared_server_state(state, shared); !written) {
        std::fprintf(stderr, "%s\n", written.error().message.c_str());
        return 1;
    }
    std::printf("server ready: %s, port %d, template database %s\n", shared.socket_dir.c_str(),
                shared.port, tmpl.c_str());
    std::fflush(stdout);
    const char byte = 1;
    (void)!::write(ready, &byte, 1);
    ::close(ready);
    wait_for_end(ctest, -1);
    std::printf("ctest (pid %d) has ended: removing the server\n", static_cast<int>(ctest));
    std::error_code ec;
    fs::remove(state, ec);
    return 0;
}

int start(const fs::path& state) {
    std::error_code ec;
    fs::create_directories(state.parent_path(), ec);
    fs::remove(state, ec);
    const fs::path log = fs::path(state).replace_extension().replace_extension(".log");
    const pid_t ctest = ::getppid();
    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) {
        std::perror("pipe");
        return 1;
    }
    std::fflush(nullptr);
    const pid_t child = ::fork();
    if (child < 0) {
        std::perror("fork");
        return 1;
    }
    if (child == 0) {
        // The daemon: a session of its own (ctest's signals to the case's group miss it), no
        // descriptor of ctest's (ctest waits for the case's output to close), output to the log.
        ::setsid();
        const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (log_fd < 0 || null_fd < 0) {
            ::_exit(1);
        }
        ::dup2(null_fd, 0);
        ::dup2(log_fd, 1);
        ::dup2(log_fd, 2);
        const int ready = ::fcntl(pipe_fds[1], F_DUPFD_CLOEXEC, 3);
        ::close_range(static_cast<unsigned>(ready) + 1, ~0U, 0);
        for (int fd = 3; fd < ready; ++fd) {
            ::close(fd);
        }
        const int code = hold(state, ctest, ready);
        std::fflush(nullptr);
        return code;
    }
    ::close(pipe_fds[1]);
    char byte = 0;
    ssize_t n = 0;
    do {
        n = ::read(pipe_fds[0], &byte, 1);
    } while (n < 0 && errno == EINTR);
    if (n == 1) {
        std::printf("shared server ready (holder pid %d, log %s)\n", static_cast<int>(child),
                    log.c_str());
        return 0;
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    std::fprintf(stderr, "the shared server did not start; its log, %s:\n", log.c_str());
    if (FILE* f = std::fopen(log.c_str(), "r")) {
        char buf[4096];
        size_t got = 0;
        while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) {
            std::fwrite(buf, 1, got, stderr);
        }
        std::fclose(f);
    }
    return 1;
}

int stop(const fs::path& state) {
    auto shared = support::read_shared_server_state(state);
    if (!shared) {
        std::printf("no shared server to stop (%s)\n", shared.error().message.c_str());
        return 0;
    }
    if (::kill(shared->holder_pid, SIGTERM) != 0 && errno != ESRCH) {
        std::perror("kill");
        return 1;
    }
    // The holder's cleanup stops the server with SIGQUIT and waits at most about 7 s for it.
    if (!wait_for_end(shared->holder_pid, 60'000)) {
        std::fprintf(stderr, "the shared server's holder (pid %d) is still running after 60 s\n",
                     static_cast<int>(shared->holder_pid));
        return 1;
    }
    std::error_code ec;
    fs::remove(state, ec);
    std::printf("shared server stopped\n");
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3 || (std::strcmp(argv[1], "start") != 0 && std::strcmp(argv[1], "stop") != 0)) {
        std::fprintf(stderr, "usage: %s start|stop NAME\n", argv[0]);
        return 2;
    }
    const fs::path state = support::shared_server_state_file(argv[2]);
    if (state.empty()) {
        std::fprintf(stderr, "PGLAB_TEST_SHARED_DIR is not set\n");
        return 2;
    }
    return std::strcmp(argv[1], "start") == 0 ? start(state) : stop(state);
}
