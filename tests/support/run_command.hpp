// Running a program from a test: argv, environment, stdin in; exit code, stdout, stderr out.
// Built on util/subprocess; the environment is made hermetic (no PG* leaking from the caller).
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace support {

using EnvOverrides = std::vector<std::pair<std::string, std::string>>;

/// What a program did. `exit_code` is -1 when it was killed by `signal` or could not start
/// (then `err` holds the reason).
struct CommandResult {
    int exit_code = -1;
    int signal = 0;
    std::string out;
    std::string err;
    bool timed_out = false;
};

/// Runs `argv` with the caller's environment minus every libpq variable (PGHOST, PGPORT,
/// PGUSER, PGDATABASE, PGPASSWORD, PGOPTIONS, PGSERVICE...), with LC_ALL=C, then `env`
/// applied; feeds `stdin_text`. Killed after `timeout`.
CommandResult run_command(const std::vector<std::string>& argv, const EnvOverrides& env = {},
                          const std::string& stdin_text = {},
                          std::chrono::seconds timeout = std::chrono::seconds(600));

/// "exit code 2" or "signal 11", with stdout and stderr: for assertion messages.
std::string describe(const CommandResult& r);

/// The pglab executable of this build (PGLAB_BINARY).
std::string pglab_binary();

/// The major version of the reference pgbench and of the test servers.
constexpr int k_reference_major = 15;

/// The pgbench to compare with, named by its version: /usr/lib/postgresql/15/bin/pgbench, or the
/// pgbench of PGLAB_TEST_PG_BIN when set. Never /usr/bin/pgbench, Debian's wrapper that runs the
/// newest client installed.
std::string pgbench_binary();

/// The command line's start that runs the benchmark: {pglab, "bench"} when `pglab`, else
/// {pgbench_binary()}; the compatibility tests give both the same arguments after it.
std::vector<std::string> bench_program(bool pglab);

} // namespace support
