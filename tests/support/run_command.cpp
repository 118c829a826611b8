// run_command and the locations of the programs under test.
#include "support/run_command.hpp"

#include "lab/server/installation.hpp"
#include "util/subprocess.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>

namespace support {

namespace {

/// libpq's environment variables: none of the caller's may change what a test talks to.
const std::vector<std::string> k_libpq_env = {"PGHOST",
                                              "PGHOSTADDR",
                                              "PGPORT",
                                              "PGUSER",
                                              "PGDATABASE",
                                              "PGPASSWORD",
                                              "PGPASSFILE",
                                              "PGOPTIONS",
                                              "PGSERVICE",
                                              "PGSERVICEFILE",
                                              "PGAPPNAME",
                                              "PGSSLMODE",
                                              "PGREQUIRESSL",
                                              "PGCONNECT_TIMEOUT",
                                              "PGCLIENTENCODING",
                                              "PGTARGETSESSIONATTRS",
                                              "PGGSSENCMODE",
                                              "PGSYSCONFDIR",
                                              "PGTZ",
                                              "PGDATESTYLE",
                                              "PGLOCALEDIR",
                                              "PSQLRC",
                                              "LANGUAGE",
                                              "LANG"};

} // namespace

namespace {

/// Every pglab a test starts speaks as the reference pgbench unless the test chooses another
/// release: set once in the test process (whatever the caller's environment said), inherited by
/// its children.
[[maybe_unused]] const bool k_reference_release_chosen =
    ::setenv("PGLAB_PGBENCH_VERSION", std::to_string(k_reference_major).c_str(), 1) == 0;

} // namespace

CommandResult run_command(const std::vector<std::string>& argv, const EnvOverrides& env,
                          const std::string& stdin_text, std::chrono::seconds timeout) {
    pglab::util::SpawnOptions o;
    o.argv = argv;
    o.unset_env = k_libpq_env;
    o.env = {{"LC_ALL", "C"}};
    o.env.insert(o.env.end(), env.begin(), env.end());
    if (!stdin_text.empty()) {
        o.stdin_text = stdin_text;
    }
    o.timeout = timeout;
    CommandResult r;
    auto run = pglab::util::run_process(o);
    if (!run) {
        r.err = run.error().message;
        return r;
    }
    r.exit_code = run->status.code;
    r.signal = run->status.signal;
    r.out = std::move(run->out);
    r.err = std::move(run->err);
    r.timed_out = run->timed_out;
    return r;
}

std::string describe(const CommandResult& r) {
    const std::string how = r.signal != 0 ? fmt::format("signal {}", r.signal)
                                          : fmt::format("exit code {}", r.exit_code);
    return fmt::format("{}{}\n--- stdout ---\n{}--- stderr ---\n{}", how,
                       r.timed_out ? " (timed out)" : "", r.out, r.err);
}

std::string pglab_binary() {
    return PGLAB_BINARY;
}

std::string pgbench_binary() {
    const char* bin = std::getenv("PGLAB_TEST_PG_BIN");
    const std::filesystem::path dir =
        bin != nullptr && *bin != '\0'
            ? std::filesystem::path(bin)
            : std::filesystem::path(fmt::format("/usr/lib/postgresql/{}/bin", k_reference_major));
    return (dir / "pgbench").string();
}

std::vector<std::string> bench_program(bool pglab) {
    if (pglab) {
        return {pglab_binary(), "bench"};
    }
    return {pgbench_binary()};
}

} // namespace support
