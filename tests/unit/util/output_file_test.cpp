// util/output_file: what stands at a user's path is written, never replaced: a regular file whole,
// a link's target with the link kept, a FIFO, socket or device in place; a directory or a missing
// directory is an error that writes nothing.
#include "util/output_file.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using pglab::util::inspect_output;
using pglab::util::open_output_stream;
using pglab::util::OutputTarget;
using pglab::util::write_output_file;

/// A directory of the test's own, removed afterwards.
class OutputFileTest : public testing::Test {
protected:
    void SetUp() override {
        std::string name = (fs::temp_directory_path() / "pglab-output-file-XXXXXX").string();
        ASSERT_NE(::mkdtemp(name.data()), nullptr);
        m_dir = name;
    }

    void TearDown() override { fs::remove_all(m_dir); }

    fs::path dir() const { return m_dir; }

    /// The names in the directory, to see that nothing was left beside a file.
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(m_dir)) {
            out.push_back(e.path().filename().string());
        }
        std::sort(out.begin(), out.end());
        return out;
    }

private:
    fs::path m_dir;
};

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Ends a reader waiting on `fifo` for a writer that never came (the code under test failed
/// before opening it), so that a failure is an assertion, not a hang.
void release_reader(const fs::path& fifo) {
    if (const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC); fd >= 0) {
        ::close(fd);
    }
}

/// A text longer than a pipe's buffer (64 kB), so that a FIFO's writer waits for its reader.
std::string big_text() {
    std::string text;
    for (int i = 0; text.size() < 1000000; ++i) {
        text += "line " + std::to_string(i) + "\n";
    }
    return text;
}

TEST_F(OutputFileTest, ANewNameIsWrittenWholeAndNothingIsLeftBeside) {
    ASSERT_TRUE(write_output_file(dir() / "report.csv", "a,b\n"));
    EXPECT_EQ(read(dir() / "report.csv"), "a,b\n");
    EXPECT_EQ(names(), std::vector<std::string>{"report.csv"});

    struct stat st {};

    ASSERT_EQ(::stat((dir() / "report.csv").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);
}

TEST_F(OutputFileTest, ARegularFileIsReplacedWholeWithItsModeKept) {
    const fs::path path = dir() / "report.md";
    std::ofstream(path) << "an older and much longer report\n";
    ::chmod(path.c_str(), 0600);
    ASSERT_TRUE(write_output_file(path, "new\n"));
    EXPECT_EQ(read(path), "new\n");

    struct stat st {};

    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    EXPECT_EQ(names(), std::vector<std::string>{"report.md"});
}

TEST_F(OutputFileTest, ASymlinkKeepsPointingAtItsRewrittenTarget) {
    fs::create_directory(dir() / "kept");
    std::ofstream(dir() / "kept" / "report.md") << "old\n";
    fs::create_symlink("kept/report.md", dir() / "link.md"); // relative, as users make them
    fs::create_symlink("link.md", dir() / "link-to-link.md");
    ASSERT_TRUE(write_output_file(dir() / "link-to-link.md", "new\n"));
    EXPECT_TRUE(fs::is_symlink(dir() / "link-to-link.md"));
    EXPECT_TRUE(fs::is_symlink(dir() / "link.md"));
    EXPECT_EQ(fs::read_symlink(dir() / "link.md"), "kept/report.md");
    EXPECT_EQ(read(dir() / "kept" / "report.md"), "new\n");
    EXPECT_EQ(names(), (std::vector<std::string>{"kept", "link-to-link.md", "link.md"}));
}

TEST_F(OutputFileTest, ADanglingSymlinkMakesItsTarget) {
    fs::create_symlink(dir() / "made.csv", dir() / "link.csv");
    ASSERT_TRUE(write_output_file(dir() / "link.csv", "x\n"));
    EXPECT_TRUE(fs::is_symlink(dir() / "link.csv"));
    EXPECT_EQ(read(dir() / "made.csv"), "x\n");
}

TEST_F(OutputFileTest, AFifoWithAReaderGetsTheWholeTextAndStaysAFifo) {
    const fs::path fifo = dir() / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string got;
    std::thread reader([&] { got = read(fifo); });
    const std::string text = big_text();
    const auto written = write_output_file(fifo, text);
    release_reader(fifo);
    reader.join();
    ASSERT_TRUE(written) << written.error().message;
    EXPECT_EQ(got.size(), text.size());
    EXPECT_TRUE(got == text);
    EXPECT_TRUE(fs::is_fifo(fifo));
    EXPECT_EQ(names(), std::vector<std::string>{"pipe"});
}

TEST_F(OutputFileTest, AFifoWhoseReaderLeavesIsAnErrorNotTheEndOfTheProcess) {
    const fs::path fifo = dir() / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::thread reader([&] {
        const int fd = ::open(fifo.c_str(), O_RDONLY | O_CLOEXEC);
        char byte = 0;
        (void)::read(fd, &byte, 1);
        ::close(fd); // leaves with most of the text unread
    });
    const auto written = write_output_file(fifo, big_text());
    release_reader(fifo);
    reader.join();
    ASSERT_FALSE(written);
    EXPECT_NE(written.error().message.find("Broken pipe"), std::string::npos)
        << written.error().message;
    EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(OutputFileTest, AUnixSocketIsConnectedToAndStaysASocket) {
    const fs::path path = dir() / "sock";
    const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)), 0);
    ASSERT_EQ(::listen(listener, 1), 0);
    std::string got;
    std::thread reader([&] {
        const int fd = ::accept(listener, nullptr, nullptr);
        char buf[65536];
        ssize_t n = 0;
        while ((n = ::read(fd, buf, sizeof(buf))) > 0) {
            got.append(buf, static_cast<std::size_t>(n));
        }
        ::close(fd);
    });
    const std::string text = big_text();
    const auto written = write_output_file(path, text);
    if (!written) { // the reader waits in accept() for a connection that never came
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        (void)::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr));
        ::close(fd);
    }
    reader.join();
    ::close(listener);
    ASSERT_TRUE(written) << written.error().message;
    EXPECT_TRUE(got == text);
    EXPECT_TRUE(fs::is_socket(path));
}

TEST_F(OutputFileTest, ANullDeviceIsWrittenInPlaceAndStaysTheSameDevice) {
    const fs::path null = dir() / "null"; // never the machine's own /dev/null
    if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
        GTEST_SKIP() << "mknod of a character device needs root (CAP_MKNOD): "
                     << std::strerror(errno);
    }

    struct stat before {};

    ASSERT_EQ(::stat(null.c_str(), &before), 0);
    ASSERT_TRUE(write_output_file(null, "discarded\n"));

    struct stat after {};

    ASSERT_EQ(::stat(null.c_str(), &after), 0);
    EXPECT_TRUE(S_ISCHR(after.st_mode));
    EXPECT_EQ(after.st_ino, before.st_ino);
    EXPECT_EQ(after.st_rdev, before.st_rdev);
    EXPECT_EQ(after.st_mode, before.st_mode);
    EXPECT_EQ(after.st_uid, before.st_uid);
    EXPECT_EQ(names(), std::vector<std::string>{"null"});
}

TEST_F(OutputFileTest, ADirectoryWhereAFileIsMeantIsRefusedAndNothingIsWritten) {
    fs::create_directory(dir() / "out");
    const auto written = write_output_file(dir() / "out", "x");
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().message,
              "cannot write " + (dir() / "out").string() + ": it is a directory");
    EXPECT_EQ(written.error().exit_code, 1);
    EXPECT_TRUE(fs::is_empty(dir() / "out"));
    EXPECT_EQ(names(), std::vector<std::string>{"out"});
}

TEST_F(OutputFileTest, AMissingDirectoryIsNamed) {
    const auto written = write_output_file("/nonexistent/dir/x.csv", "x");
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().message,
              "cannot write /nonexistent/dir/x.csv: its directory does not exist");
    std::ofstream(dir() / "file") << "";
    const auto under_file = inspect_output(dir() / "file" / "x.csv");
    ASSERT_FALSE(under_file);
    EXPECT_EQ(under_file.error().message, "cannot write " + (dir() / "file" / "x.csv").string()
                                              + ": " + (dir() / "file").string()
                                              + " is not a directory");
}

TEST_F(OutputFileTest, InspectingChangesNothing) {
    const fs::path fifo = dir() / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto seen = inspect_output(fifo); // must not open it: that would wait for a reader
    ASSERT_TRUE(seen);
    EXPECT_EQ(seen->kind, OutputTarget::Kind::in_place);
    const auto absent = inspect_output(dir() / "new.json");
    ASSERT_TRUE(absent);
    EXPECT_EQ(absent->kind, OutputTarget::Kind::new_file);
    EXPECT_EQ(names(), std::vector<std::string>{"pipe"});
}

TEST_F(OutputFileTest, AStreamFollowsALinkAndWritesAFifoInPlace) {
    std::ofstream(dir() / "log.1") << "an old log\n";
    fs::create_symlink("log.1", dir() / "log");
    const int fd = open_output_stream(dir() / "log");
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, "new\n", 4), 4);
    ::close(fd);
    EXPECT_TRUE(fs::is_symlink(dir() / "log"));
    EXPECT_EQ(read(dir() / "log.1"), "new\n");

    const fs::path fifo = dir() / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string got;
    std::thread reader([&] { got = read(fifo); });
    const int pipe_fd = open_output_stream(fifo);
    if (pipe_fd >= 0) {
        EXPECT_EQ(::write(pipe_fd, "tx\n", 3), 3);
        ::close(pipe_fd);
    }
    release_reader(fifo);
    reader.join();
    ASSERT_GE(pipe_fd, 0);
    EXPECT_EQ(got, "tx\n");
    EXPECT_TRUE(fs::is_fifo(fifo));

    errno = 0;
    EXPECT_EQ(open_output_stream("/nonexistent/dir/log"), -1);
    EXPECT_EQ(errno, ENOENT); // pgbench's words follow: "No such file or directory"
}

} // namespace
