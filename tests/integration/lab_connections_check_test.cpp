// A bench step whose clients, with pglab's own connections beside them, exceed its server's
// max_connections is refused before any server starts (by the run and by --dry-run), naming the
// cell, the count and the limit; raising max_connections lets it through.
#include <fmt/format.h>

#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

using LabConnectionsCheck = support::LabTestDir;

std::string many_clients(const std::string& server_settings, const std::string& bench_keys) {
    return fmt::format(R"toml(name = "many-clients"

[servers.pg]
{}

[matrix]
clients = [50, 99]
duration = 1

[[steps]]
type = "init"
once = true

[[steps]]
type = "bench"
name = "tpcb"
{}
)toml",
                       server_settings, bench_keys);
}

TEST_F(LabConnectionsCheck, ClientsAboveMaxConnectionsAreRefusedBeforeAnyServerStarts) {
    // 99 clients and the probe connection fit in PostgreSQL's default 100; the wait sampler's
    // connection is one too many.
    const fs::path fits = write("fits.toml", many_clients("", ""));
    const auto ok =
        support::run_command({support::pglab_binary(), "run", "--dry-run", fits.string()}, env());
    EXPECT_EQ(ok.exit_code, 0) << support::describe(ok);

    const fs::path over = write("over.toml", many_clients("", "sample_waits = \"1s\""));
    for (const bool dry : {true, false}) {
        SCOPED_TRACE(dry ? "--dry-run" : "run");
        std::vector<std::string> args = {support::pglab_binary(), "run", over.string(), "--results",
                                         (m_dir / "results").string()};
        if (dry) {
            args.emplace_back("--dry-run");
        }
        const auto r = support::run_command(args, env());
        EXPECT_EQ(r.exit_code, 1) << support::describe(r);
        EXPECT_NE(r.err.find(over.string()
                             + ":14:1: bench step \"tpcb\": 99 clients in cell "
                               "\"clients=99 duration=1\" and pglab's 2 (its probe "
                               "connection, the wait sampler's) make 101 connections, "
                               "more than max_connections (100) of server \"pg\""),
                  std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("set max_connections to at least 101"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("clients=50"), std::string::npos) << r.err; // 52 fit
        EXPECT_FALSE(fs::exists(m_dir / "results"));
        EXPECT_TRUE(fs::is_empty(m_tmp)) << "a server was started";
    }

    const fs::path raised =
        write("raised.toml",
              many_clients("settings = { max_connections = 120 }", "sample_waits = \"1s\""));
    const auto through =
        support::run_command({support::pglab_binary(), "run", "--dry-run", raised.string()}, env());
    EXPECT_EQ(through.exit_code, 0) << support::describe(through);
}

} // namespace
