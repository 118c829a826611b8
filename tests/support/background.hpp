// A program started in the background by a test (`pglab run` to be signalled, killed, or raced
// by a second runner): hermetic environment, stdout discarded, stderr in a file.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace support {

class Background {
public:
    /// Starts `argv` with only TMPDIR=`tmpdir`, PATH, LC_ALL=C and `env` ("NAME=value" each)
    /// in its environment, its stderr written to `err`. pid() is 0 when it could not start.
    Background(const std::vector<std::string>& argv, const std::filesystem::path& tmpdir,
               const std::filesystem::path& err, const std::vector<std::string>& env = {});

    /// SIGKILLs and reaps it when the test did not wait for it.
    ~Background();

    Background(const Background&) = delete;
    Background& operator=(const Background&) = delete;

    pid_t pid() const { return m_pid; }

    /// Waits for its end (at most the event timeout of wait.hpp): its wait status, or -1 when it
    /// still runs.
    int wait();

private:
    pid_t m_pid = 0;
};

} // namespace support
