// util/subprocess: exit status, capture of both streams, stdin, environment, working directory,
// timeouts, started processes, and the errors for programs that cannot run.
#include "util/subprocess.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

namespace pglab::util {
namespace {

using namespace std::chrono_literals;

ProcessResult run_ok(SpawnOptions o) {
    auto r = run_process(o);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().message);
    return r ? *r : ProcessResult{};
}

SpawnOptions shell(const std::string& script) {
    SpawnOptions o;
    o.argv = {"/bin/sh", "-c", script};
    return o;
}

TEST(SubprocessTest, CapturesStdoutStderrAndExitCode) {
    const ProcessResult r = run_ok(shell("echo out; echo err >&2; exit 3"));
    EXPECT_EQ(r.out, "out\n");
    EXPECT_EQ(r.err, "err\n");
    EXPECT_EQ(r.status.code, 3);
    EXPECT_TRUE(r.status.exited());
    EXPECT_FALSE(r.status.success());
    EXPECT_FALSE(r.timed_out);
}

TEST(SubprocessTest, LargeOutputOnBothStreamsDoesNotDeadlock) {
    // 1 MB on each stream, interleaved: more than any pipe buffer.
    const ProcessResult r = run_ok(
        shell("i=0; while [ $i -lt 16 ]; do head -c 65536 /dev/zero; head -c 65536 /dev/zero >&2; "
              "i=$((i+1)); done"));
    EXPECT_EQ(r.out.size(), 1u << 20);
    EXPECT_EQ(r.err.size(), 1u << 20);
    EXPECT_TRUE(r.status.success());
}

TEST(SubprocessTest, WritesStdinText) {
    SpawnOptions o;
    o.argv = {"cat"};
    o.stdin_text = std::string(300000, 'x') + "end";
    const ProcessResult r = run_ok(o);
    EXPECT_EQ(r.out, *o.stdin_text);
}

TEST(SubprocessTest, ChildThatIgnoresStdinDoesNotKillUs) {
    SpawnOptions o = shell("exec 0<&-; echo done");
    o.stdin_text = std::string(1 << 20, 'x');
    const ProcessResult r = run_ok(o);
    EXPECT_EQ(r.out, "done\n");
}

TEST(SubprocessTest, NoStdinMeansDevNull) {
    const ProcessResult r = run_ok(shell("cat; echo eof"));
    EXPECT_EQ(r.out, "eof\n");
}

TEST(SubprocessTest, EnvironmentOverridesAndUnsets) {
    ::setenv("PGLAB_TEST_KEEP", "kept", 1);
    ::setenv("PGLAB_TEST_DROP", "dropped", 1);
    SpawnOptions o = shell("echo \"$PGLAB_TEST_KEEP/$PGLAB_TEST_NEW/${PGLAB_TEST_DROP-unset}\"");
    o.env = {{"PGLAB_TEST_NEW", "new"}};
    o.unset_env = {"PGLAB_TEST_DROP"};
    EXPECT_EQ(run_ok(o).out, "kept/new/unset\n");
}

TEST(SubprocessTest, WorkingDirectory) {
    SpawnOptions o;
    o.argv = {"pwd"};
    o.working_dir = "/usr";
    EXPECT_EQ(run_ok(o).out, "/usr\n");
}

TEST(SubprocessTest, MissingProgramIsAnError) {
    SpawnOptions o;
    o.argv = {"/nonexistent/program"};
    auto r = run_process(o);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().message,
              "could not execute \"/nonexistent/program\": No such file or directory");
}

TEST(SubprocessTest, BadWorkingDirectoryIsAnError) {
    SpawnOptions o;
    o.argv = {"true"};
    o.working_dir = "/nonexistent";
    auto r = run_process(o);
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().message.find("could not change directory to \"/nonexistent\""),
              std::string::npos);
}

TEST(SubprocessTest, EmptyArgvIsAnError) {
    EXPECT_FALSE(run_process(SpawnOptions{}).has_value());
}

TEST(SubprocessTest, TimeoutKillsTheChildAndItsGroup) {
    // The background sleep holds the output pipe open: run_process returns (reads end of file)
    // only once the whole group is killed, long before either sleep would end.
    SpawnOptions o = shell("echo started; sleep 3000 & sleep 3000; echo never");
    o.timeout = 300ms;
    o.group = ProcessGroup::own;
    const ProcessResult r = run_ok(o);
    EXPECT_TRUE(r.timed_out);
    EXPECT_EQ(r.status.signal, SIGKILL);
    EXPECT_EQ(r.out, "started\n");
}

TEST(SubprocessTest, SignalIsReported) {
    const ProcessResult r = run_ok(shell("kill -TERM $$"));
    EXPECT_EQ(r.status.signal, SIGTERM);
    EXPECT_EQ(r.status.code, -1);
    EXPECT_EQ(r.status.describe(), "was terminated by signal 15 (Terminated)");
}

TEST(SubprocessTest, OutputToFile) {
    char path[] = "/tmp/pglab-subprocess-test-XXXXXX";
    const int fd = ::mkstemp(path);
    ASSERT_GE(fd, 0);
    ::close(fd);
    SpawnOptions o = shell("echo one; echo two >&2");
    o.output = Output::file;
    o.output_path = path;
    ASSERT_TRUE(run_ok(o).status.success());
    SpawnOptions cat;
    cat.argv = {"cat", path};
    EXPECT_EQ(run_ok(cat).out, "one\ntwo\n");
    ::unlink(path);
}

TEST(ChildProcessTest, StartWaitAndSignal) {
    SpawnOptions o;
    o.argv = {"sleep", "30"};
    o.output = Output::discard;
    auto child = ChildProcess::start(o);
    ASSERT_TRUE(child.has_value()) << child.error().message;
    EXPECT_GT(child->pid(), 0);
    EXPECT_FALSE(child->try_wait().has_value());
    EXPECT_FALSE(child->wait(50ms).has_value());
    EXPECT_TRUE(child->send_signal(SIGTERM));
    const auto st = child->wait(5s);
    ASSERT_TRUE(st.has_value());
    EXPECT_EQ(st->signal, SIGTERM);
    EXPECT_EQ(child->pid(), 0);
    EXPECT_FALSE(child->send_signal(SIGTERM));
}

TEST(ChildProcessTest, DestructorKillsARunningChild) {
    pid_t pid = 0;
    {
        SpawnOptions o;
        o.argv = {"sleep", "30"};
        o.output = Output::discard;
        auto child = ChildProcess::start(o);
        ASSERT_TRUE(child.has_value());
        pid = child->pid();
    }
    EXPECT_NE(::kill(pid, 0), 0); // killed and reaped
}

TEST(ChildProcessTest, CaptureIsRefused) {
    SpawnOptions o;
    o.argv = {"true"};
    EXPECT_FALSE(ChildProcess::start(o).has_value());
}

TEST(SubprocessTest, LookupUser) {
    auto root = lookup_user("root");
    ASSERT_TRUE(root.has_value());
    EXPECT_EQ(root->uid, 0u);
    EXPECT_FALSE(lookup_user("no-such-user-pglab").has_value());
}

TEST(SubprocessTest, RunAsAnotherUser) {
    if (::geteuid() != 0) {
        GTEST_SKIP() << "needs root";
    }
    auto nobody = lookup_user("nobody");
    ASSERT_TRUE(nobody.has_value());
    SpawnOptions o;
    o.argv = {"id", "-u"};
    o.run_as = *nobody;
    o.working_dir = "/";
    EXPECT_EQ(run_ok(o).out, std::to_string(nobody->uid) + "\n");
}

// A program under a directory only root may enter: the message names the user whose rights failed.
TEST(SubprocessTest, RunAsAnotherUserWithoutSearchPermission) {
    if (::geteuid() != 0) {
        GTEST_SKIP() << "needs root";
    }
    auto nobody = lookup_user("nobody");
    ASSERT_TRUE(nobody.has_value());
    char tmpl[] = "/tmp/pglab-subprocess-XXXXXX"; // mkdtemp makes it 0700
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const std::filesystem::path dir = tmpl;
    std::filesystem::copy_file("/bin/true", dir / "true");
    SpawnOptions o;
    o.argv = {(dir / "true").string()};
    o.run_as = *nobody;
    o.working_dir = "/";
    auto r = run_process(o);
    std::filesystem::remove_all(dir);
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().message.find("as user \"nobody\": Permission denied"), std::string::npos)
        << r.error().message;
}

TEST(SubprocessTest, QuoteCommand) {
    EXPECT_EQ(quote_command({"psql", "-c", "select 1", "it's"}), "psql -c 'select 1' 'it'\\''s'");
}

} // namespace
} // namespace pglab::util
