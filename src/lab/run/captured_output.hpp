// lab/run: this process's stdout and stderr sent to a file for a while: the init and bench
// libraries write their messages to the terminal, and a lab step keeps them in its log.
// Internal to lab/run.
#pragma once

#include <filesystem>

namespace pglab::lab::run {

/// Sends this process's stdout and stderr to `path` (appending) for as long as it lives: init and
/// bench write their messages there, as they would on a terminal.
class CaptureOutput {
public:
    explicit CaptureOutput(const std::filesystem::path& path);
    ~CaptureOutput();

    CaptureOutput(const CaptureOutput&) = delete;
    CaptureOutput& operator=(const CaptureOutput&) = delete;

private:
    int m_out = -1;
    int m_err = -1;
};

} // namespace pglab::lab::run
