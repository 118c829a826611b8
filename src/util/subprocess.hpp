// Child processes: fork/exec with an argv vector, extra environment, working directory, an
// optional user to switch to, stdin text; capture of stdout/stderr, timeouts. No shell involved.
#pragma once

#include "util/result.hpp"

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pglab::util {

/// The identity a child switches to before exec (setgroups, setgid, setuid). Only root can use it.
struct RunAs {
    uid_t uid = 0;
    gid_t gid = 0;
    std::string name; ///< login name, for messages and $USER/$LOGNAME in the child
    std::string home; ///< home directory, for $HOME in the child
};

/// Looks `name` up in the password database. Error when no such user exists.
Result<RunAs> lookup_user(const std::string& name);

/// Where a child's stdout and stderr go.
enum class Output {
    capture, ///< into ProcessResult::out / err (run_process only)
    inherit, ///< the parent's own stdout / stderr
    discard, ///< /dev/null
    file,    ///< both appended to SpawnOptions::output_path (created with mode 0600)
};

/// Whether the child leads a new process group: then a terminal's Ctrl-C does not reach it, and
/// a timeout kills the whole group, grandchildren included.
enum class ProcessGroup { inherit, own };

/// Everything that describes one child process.
struct SpawnOptions {
    std::vector<std::string>
        argv; ///< argv[0] is the program; a name without '/' is searched in PATH
    std::vector<std::pair<std::string, std::string>> env; ///< set or override in the child
    std::vector<std::string> unset_env;                   ///< removed from the child's environment
    std::string working_dir;                              ///< empty: the parent's
    std::optional<RunAs> run_as;           ///< switch to this user in the child (root only)
    std::optional<std::string> stdin_text; ///< written to the child's stdin; none: /dev/null
    Output output = Output::capture;
    std::string output_path; ///< for Output::file
    ProcessGroup group = ProcessGroup::inherit;
    /// Signal the child receives when the parent *thread* that spawned it ends (0: none). A
    /// backstop against orphans when the parent is killed with SIGKILL (prctl PR_SET_PDEATHSIG).
    int parent_death_signal = 0;
    /// A cgroup's `cgroup.procs` file (v1 or v2): the child moves itself there before the user
    /// switch and exec, so that everything it starts is in that cgroup. Empty: stays where it is.
    std::string cgroup_procs_path;
    /// run_process only: kill the child (SIGKILL, its group when it has its own) after this long.
    std::optional<std::chrono::milliseconds> timeout;
    /// run_process only: asked every few milliseconds while the child runs; when it says true
    /// (a stop was requested: SIGINT, a deadline) the child is killed as on a timeout.
    std::function<bool()> stop;
};

/// How a child ended: an exit code, or the signal that terminated it.
struct ExitStatus {
    int code = -1;  ///< exit code when the child exited, else -1
    int signal = 0; ///< terminating signal, else 0

    bool exited() const { return signal == 0 && code >= 0; }

    bool success() const { return signal == 0 && code == 0; }

    /// "exited with code 3" / "was terminated by signal 9 (Killed)".
    std::string describe() const;

    static ExitStatus from_wait_status(int status);
};

/// The outcome of run_process.
struct ProcessResult {
    ExitStatus status;
    std::string out;        ///< captured stdout (Output::capture)
    std::string err;        ///< captured stderr (Output::capture)
    bool timed_out = false; ///< the child was killed because SpawnOptions::timeout passed
    bool stopped = false;   ///< the child was killed because SpawnOptions::stop said so
};

/// Runs a child to completion. stdout and stderr are drained together with poll(), so a child
/// writing much to both never blocks; stdin text is written in the same loop. SIGPIPE from a
/// child that does not read its stdin is swallowed. Error when the program cannot be started
/// (the message names it and the reason, e.g. "No such file or directory"); a non-zero exit
/// status is not an error but part of the result.
Result<ProcessResult> run_process(const SpawnOptions& options);

/// run_process, for a child that must succeed: a non-zero exit, a signal or a timeout is an error
/// naming the command and how it ended, with its stderr (else its stdout) as the detail.
Result<ProcessResult> run_checked(const SpawnOptions& options);

/// A started child that runs on its own (a server). Output::capture is not allowed for it: give
/// inherit, discard or file. Move-only; the destructor kills (SIGKILL) and reaps a child that is
/// still running, so no process outlives its owner by accident.
class ChildProcess {
public:
    /// Starts the child and returns at once. Error when it cannot be started.
    static Result<ChildProcess> start(const SpawnOptions& options);

    ChildProcess() = default;
    ChildProcess(ChildProcess&& other) noexcept;
    ChildProcess& operator=(ChildProcess&& other) noexcept;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess();

    /// The child's pid, 0 when there is none or it has been reaped.
    pid_t pid() const { return m_pid; }

    /// Reaps the child if it has ended (non-blocking). Its status once it has ended.
    std::optional<ExitStatus> try_wait();

    /// Waits until the child ends, at most `timeout` (none: forever). Returns nothing when the
    /// timeout passed and the child still runs.
    std::optional<ExitStatus> wait(std::optional<std::chrono::milliseconds> timeout);

    /// Sends `sig` to the child (to its group too when it leads one). False when it has ended.
    bool send_signal(int sig);

    /// The status of a child reaped earlier.
    std::optional<ExitStatus> status() const { return m_status; }

private:
    ChildProcess(pid_t pid, bool own_group) : m_pid(pid), m_own_group(own_group) {}

    void kill_and_reap();

    pid_t m_pid = 0;
    bool m_own_group = false;
    std::optional<ExitStatus> m_status;
};

/// The program name as a user would type it again: arguments joined with spaces, each quoted
/// with single quotes when it holds anything but [A-Za-z0-9_./=:,+-]. For messages only.
std::string quote_command(const std::vector<std::string>& argv);

} // namespace pglab::util
