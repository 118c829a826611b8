// Child processes with fork/exec. Between fork and exec only async-signal-safe calls are made:
// everything the child needs (argv, environment, file descriptors) is prepared before fork.
#include "util/subprocess.hpp"

#include "util/sigpipe_guard.hpp"
#include "util/unique_fd.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <grp.h>
#include <linux/close_range.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <string_view>
#include <thread>

extern char** environ;

namespace pglab::util {

namespace {

constexpr int k_exec_failed_code = 127;
constexpr std::chrono::milliseconds k_drain_after_kill{2000};

/// What the child reports through its close-on-exec pipe when it cannot exec.
enum class ChildStage : int { open_output, join_cgroup, change_dir, switch_user, exec };

struct ChildFailure {
    ChildStage stage;
    int error;
};

struct Pipe {
    UniqueFd read;
    UniqueFd write;
};

Result<Pipe> make_pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        return make_error(fmt::format("could not create pipe: {}", ::strerror(errno)));
    }
    return Pipe{UniqueFd(fds[0]), UniqueFd(fds[1])};
}

/// The child's environment: the parent's, minus `unset_env`, with `env` applied on top.
std::vector<std::string> build_environment(const SpawnOptions& o) {
    std::vector<std::string> out;
    auto overridden = [&o](std::string_view entry) {
        const std::string_view name = entry.substr(0, entry.find('='));
        for (const auto& u : o.unset_env) {
            if (u == name) {
                return true;
            }
        }
        for (const auto& [k, v] : o.env) {
            if (k == name) {
                return true;
            }
        }
        if (o.run_as && (name == "HOME" || name == "USER" || name == "LOGNAME")) {
            return true;
        }
        return false;
    };
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        if (!overridden(*e)) {
            out.emplace_back(*e);
        }
    }
    if (o.run_as) {
        out.push_back("HOME=" + o.run_as->home);
        out.push_back("USER=" + o.run_as->name);
        out.push_back("LOGNAME=" + o.run_as->name);
    }
    for (const auto& [k, v] : o.env) {
        out.push_back(k + "=" + v);
    }
    return out;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
    std::vector<char*> out;
    out.reserve(strings.size() + 1);
    for (auto& s : strings) {
        out.push_back(s.data());
    }
    out.push_back(nullptr);
    return out;
}

void write_all_raw(int fd, const void* data, size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return;
        }
        p += n;
        size -= static_cast<size_t>(n);
    }
}

[[noreturn]] void child_fail(int report_fd, ChildStage stage) {
    const ChildFailure failure{stage, errno};
    write_all_raw(report_fd, &failure, sizeof failure);
    ::_exit(k_exec_failed_code);
}

/// The file descriptors the child gets as 0, 1 and 2.
struct ChildFds {
    int in = -1;
    int out = -1;
    int err = -1;
};

/// Runs in the child between fork and exec: async-signal-safe calls only.
[[noreturn]] void child_main(const SpawnOptions& o, const ChildFds& fds, char** argv, char** envp,
                             int report_fd, pid_t parent) {
    // Handlers of the parent (a cluster cleanup, say) must not run in the child.
    for (int sig = 1; sig < NSIG; ++sig) {
        ::signal(sig, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    if (o.group == ProcessGroup::own) {
        ::setpgid(0, 0);
    }
    ::dup2(fds.in, STDIN_FILENO);
    ::dup2(fds.out, STDOUT_FILENO);
    ::dup2(fds.err, STDERR_FILENO);
    // Descriptors the parent left inheritable (a test's pipe, a listening socket) must not leak
    // into a server, where they would keep a pipe open for as long as it runs.
    ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
    // Before exec, so that every process the program starts is in the cgroup too; before the
    // user switch, which may lose the right to write there. "0" is the writer itself.
    if (!o.cgroup_procs_path.empty()) {
        const int fd = ::open(o.cgroup_procs_path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0 || ::write(fd, "0\n", 2) != 2) {
            child_fail(report_fd, ChildStage::join_cgroup);
        }
        ::close(fd);
    }
    if (o.run_as) {
        if (::setgroups(0, nullptr) != 0 || ::setgid(o.run_as->gid) != 0
            || ::setuid(o.run_as->uid) != 0) {
            child_fail(report_fd, ChildStage::switch_user);
        }
    }
    // After the user switch, so that the directory is checked with the child's own rights.
    if (!o.working_dir.empty() && ::chdir(o.working_dir.c_str()) != 0) {
        child_fail(report_fd, ChildStage::change_dir);
    }
    // After setuid: a change of credentials clears the parent-death signal.
    if (o.parent_death_signal != 0) {
        ::prctl(PR_SET_PDEATHSIG, o.parent_death_signal);
        if (::getppid() != parent) {
            ::_exit(k_exec_failed_code);
        }
    }
    ::execvpe(argv[0], argv, envp);
    child_fail(report_fd, ChildStage::exec);
}

std::string failure_message(const SpawnOptions& o, const ChildFailure& f) {
    const char* reason = ::strerrordesc_np(f.error);
    switch (f.stage) {
    case ChildStage::open_output:
        return fmt::format("could not open \"{}\": {}", o.output_path, reason);
    case ChildStage::join_cgroup:
        return fmt::format("could not move \"{}\" into the cgroup of \"{}\": {}", o.argv[0],
                           o.cgroup_procs_path, reason);
    case ChildStage::change_dir:
        return fmt::format("could not change directory to \"{}\": {}", o.working_dir, reason);
    case ChildStage::switch_user:
        return fmt::format("could not switch to user \"{}\" to run \"{}\": {}",
                           o.run_as ? o.run_as->name : "", o.argv[0], reason);
    case ChildStage::exec:
        break;
    }
    if (o.run_as) { // its rights, not the caller's, decide: say whose they are
        return fmt::format("could not execute \"{}\" as user \"{}\": {}", o.argv[0], o.run_as->name,
                           reason);
    }
    return fmt::format("could not execute \"{}\": {}", o.argv[0], reason);
}

/// The descriptors the parent keeps for a capturing run.
struct ParentFds {
    UniqueFd in;  ///< write end of the child's stdin, when there is stdin text
    UniqueFd out; ///< read end of the child's stdout, when captured
    UniqueFd err; ///< read end of the child's stderr, when captured
};

/// Forks and execs; the parent gets the child's pid and the pipe ends it keeps.
Result<pid_t> spawn(const SpawnOptions& o, ParentFds& parent_fds) {
    if (o.argv.empty()) {
        return make_error("cannot run a command with an empty argument list");
    }
    std::vector<std::string> argv_strings = o.argv;
    std::vector<std::string> env_strings = build_environment(o);
    std::vector<char*> argv = c_strings(argv_strings);
    std::vector<char*> envp = c_strings(env_strings);

    UniqueFd dev_null(::open("/dev/null", O_RDWR | O_CLOEXEC));
    if (dev_null.get() < 0) {
        return make_error(fmt::format("could not open \"/dev/null\": {}", ::strerror(errno)));
    }
    ChildFds child{dev_null.get(), dev_null.get(), dev_null.get()};
    UniqueFd in_read;
    UniqueFd out_write;
    UniqueFd err_write;
    UniqueFd file;
    if (o.stdin_text) {
        PGLAB_TRY_ASSIGN(Pipe p, make_pipe());
        in_read = std::move(p.read);
        parent_fds.in = std::move(p.write);
        child.in = in_read.get();
    }
    switch (o.output) {
    case Output::capture: {
        PGLAB_TRY_ASSIGN(Pipe po, make_pipe());
        PGLAB_TRY_ASSIGN(Pipe pe, make_pipe());
        parent_fds.out = std::move(po.read);
        parent_fds.err = std::move(pe.read);
        out_write = std::move(po.write);
        err_write = std::move(pe.write);
        child.out = out_write.get();
        child.err = err_write.get();
        break;
    }
    case Output::inherit:
        child.out = STDOUT_FILENO;
        child.err = STDERR_FILENO;
        break;
    case Output::discard:
        break;
    case Output::file:
        file = UniqueFd(
            ::open(o.output_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600));
        if (file.get() < 0) {
            return make_error(failure_message(o, ChildFailure{ChildStage::open_output, errno}));
        }
        if (o.run_as && ::fchown(file.get(), o.run_as->uid, o.run_as->gid) != 0) {
            return make_error(fmt::format("could not change owner of \"{}\": {}", o.output_path,
                                          ::strerror(errno)));
        }
        child.out = file.get();
        child.err = file.get();
        break;
    }
    PGLAB_TRY_ASSIGN(Pipe report, make_pipe());

    // Block every signal around fork so that no parent handler runs in the child before it
    // resets them; the parent restores its mask at once.
    sigset_t all;
    sigset_t old;
    sigfillset(&all);
    ::pthread_sigmask(SIG_SETMASK, &all, &old);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid == 0) {
        child_main(o, child, argv.data(), envp.data(), report.write.get(), parent);
    }
    const int fork_errno = errno;
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (pid < 0) {
        return make_error(
            fmt::format("could not fork to run \"{}\": {}", o.argv[0], ::strerror(fork_errno)));
    }
    report.write.reset();
    ChildFailure failure{};
    ssize_t n = 0;
    do {
        n = ::read(report.read.get(), &failure, sizeof failure);
    } while (n < 0 && errno == EINTR);
    if (n == static_cast<ssize_t>(sizeof failure)) {
        int status = 0;
        ::waitpid(pid, &status, 0);
        return make_error(failure_message(o, failure));
    }
    return pid;
}

/// Waits for `pid` until `deadline` (none: forever). Nothing when the deadline passed.
std::optional<int> wait_until(pid_t pid,
                              std::optional<std::chrono::steady_clock::time_point> deadline) {
    auto pause = std::chrono::milliseconds(1);
    for (;;) {
        int status = 0;
        const pid_t r = ::waitpid(pid, &status, deadline ? WNOHANG : 0);
        if (r == pid) {
            return status;
        }
        if (r < 0 && errno != EINTR) {
            return 0; // not our child (any more): nothing to wait for
        }
        if (deadline && std::chrono::steady_clock::now() >= *deadline) {
            return std::nullopt;
        }
        if (deadline) {
            std::this_thread::sleep_for(pause);
            pause = std::min(pause * 2, std::chrono::milliseconds(50));
        }
    }
}

void kill_child(pid_t pid, ProcessGroup group, int sig) {
    if (group == ProcessGroup::own) {
        ::kill(-pid, sig);
    }
    ::kill(pid, sig);
}

/// How often SpawnOptions::stop is asked while a child runs.
constexpr int k_stop_poll_ms = 20;

/// Feeds stdin and drains stdout/stderr until both reach end of file, `deadline` passes or
/// `stop` (when given) says so. Returns false on timeout or stop.
bool communicate(ParentFds& fds, std::string_view input, std::string& out, std::string& err,
                 std::optional<std::chrono::steady_clock::time_point> deadline,
                 const std::function<bool()>& stop = {}) {
    SigpipeGuard guard;
    if (fds.in.get() >= 0) {
        ::fcntl(fds.in.get(), F_SETFL, ::fcntl(fds.in.get(), F_GETFL) | O_NONBLOCK);
        if (input.empty()) {
            fds.in.reset();
        }
    }
    char buffer[65536];
    while (fds.in.get() >= 0 || fds.out.get() >= 0 || fds.err.get() >= 0) {
        pollfd p[3] = {
            {fds.in.get(), POLLOUT, 0}, {fds.out.get(), POLLIN, 0}, {fds.err.get(), POLLIN, 0}};
        int timeout_ms = -1;
        if (deadline) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                *deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) {
                return false;
            }
            timeout_ms = static_cast<int>(std::min<long long>(left.count() + 1, 1 << 30));
        }
        if (stop) {
            if (stop()) {
                return false;
            }
            timeout_ms = timeout_ms < 0 ? k_stop_poll_ms : std::min(timeout_ms, k_stop_poll_ms);
        }
        const int ready = ::poll(p, 3, timeout_ms);
        if (ready < 0 && errno != EINTR) {
            return true;
        }
        if (p[0].revents != 0) {
            const ssize_t n = ::write(fds.in.get(), input.data(), input.size());
            if (n > 0) {
                input.remove_prefix(static_cast<size_t>(n));
            }
            if ((n < 0 && errno != EAGAIN && errno != EINTR) || input.empty()) {
                fds.in.reset();
            }
        }
        UniqueFd* readers[2] = {&fds.out, &fds.err};
        std::string* sinks[2] = {&out, &err};
        for (int i = 0; i < 2; ++i) {
            if (p[i + 1].revents == 0) {
                continue;
            }
            const ssize_t n = ::read(readers[i]->get(), buffer, sizeof buffer);
            if (n > 0) {
                sinks[i]->append(buffer, static_cast<size_t>(n));
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                readers[i]->reset();
            }
        }
    }
    return true;
}

} // namespace

std::string ExitStatus::describe() const {
    if (signal != 0) {
        const char* d = ::sigdescr_np(signal);
        return fmt::format("was terminated by signal {} ({})", signal, d != nullptr ? d : "?");
    }
    return fmt::format("exited with code {}", code);
}

ExitStatus ExitStatus::from_wait_status(int status) {
    if (WIFEXITED(status)) {
        return ExitStatus{WEXITSTATUS(status), 0};
    }
    if (WIFSIGNALED(status)) {
        return ExitStatus{-1, WTERMSIG(status)};
    }
    return ExitStatus{};
}

Result<ProcessResult> run_process(const SpawnOptions& options) {
    ParentFds fds;
    PGLAB_TRY_ASSIGN(const pid_t pid, spawn(options, fds));
    std::optional<std::chrono::steady_clock::time_point> deadline;
    if (options.timeout) {
        deadline = std::chrono::steady_clock::now() + *options.timeout;
    }
    ProcessResult result;
    const std::string_view input = options.stdin_text ? *options.stdin_text : std::string_view{};
    if (!communicate(fds, input, result.out, result.err, deadline, options.stop)) {
        result.stopped = options.stop && options.stop();
        result.timed_out = !result.stopped;
        kill_child(pid, options.group, SIGKILL);
        // A grandchild may still hold the pipes open: drain a little longer, then give up.
        communicate(fds, {}, result.out, result.err,
                    std::chrono::steady_clock::now() + k_drain_after_kill);
    }
    std::optional<int> status = wait_until(pid, deadline);
    if (!status) {
        result.timed_out = !result.stopped;
        kill_child(pid, options.group, SIGKILL);
        status = wait_until(pid, std::nullopt);
    }
    result.status = ExitStatus::from_wait_status(*status);
    return result;
}

Result<ChildProcess> ChildProcess::start(const SpawnOptions& options) {
    if (options.output == Output::capture) {
        return make_error("a started process cannot capture its output: give a file instead");
    }
    if (options.stdin_text) {
        return make_error("a started process cannot take stdin text");
    }
    ParentFds fds;
    PGLAB_TRY_ASSIGN(const pid_t pid, spawn(options, fds));
    return ChildProcess(pid, options.group == ProcessGroup::own);
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : m_pid(std::exchange(other.m_pid, 0)), m_own_group(other.m_own_group),
      m_status(other.m_status) {}

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
    if (this != &other) {
        kill_and_reap();
        m_pid = std::exchange(other.m_pid, 0);
        m_own_group = other.m_own_group;
        m_status = other.m_status;
    }
    return *this;
}

ChildProcess::~ChildProcess() {
    kill_and_reap();
}

void ChildProcess::kill_and_reap() {
    if (m_pid > 0) {
        kill_child(m_pid, m_own_group ? ProcessGroup::own : ProcessGroup::inherit, SIGKILL);
        wait(std::nullopt);
    }
}

std::optional<ExitStatus> ChildProcess::try_wait() {
    return wait(std::chrono::milliseconds(0));
}

std::optional<ExitStatus> ChildProcess::wait(std::optional<std::chrono::milliseconds> timeout) {
    if (m_pid <= 0) {
        return m_status;
    }
    std::optional<std::chrono::steady_clock::time_point> deadline;
    if (timeout) {
        deadline = std::chrono::steady_clock::now() + *timeout;
    }
    const std::optional<int> status = wait_until(m_pid, deadline);
    if (!status) {
        return std::nullopt;
    }
    m_status = ExitStatus::from_wait_status(*status);
    m_pid = 0;
    return m_status;
}

bool ChildProcess::send_signal(int sig) {
    if (m_pid <= 0) {
        return false;
    }
    kill_child(m_pid, m_own_group ? ProcessGroup::own : ProcessGroup::inherit, sig);
    return true;
}

} // namespace pglab::util
