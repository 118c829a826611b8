// `pglab run` with a `server` matrix over two PostgreSQL versions: the installed one (15) and a
// release already fetched into pglab's cache (never downloaded here; skipped without one).
#include "lab/server/installation.hpp"

#include <fmt/format.h>

#include <optional>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;
namespace server = pglab::lab::server;

/// A fetched release of another major version than the installed `major`: 17 if cached, else
/// the first other one found.
std::optional<server::Installation> fetched_release(int major) {
    std::optional<server::Installation> found;
    for (const auto& inst : server::list_installations()) {
        if (inst.origin != "cache" || inst.major == major) {
            continue;
        }
        if (!found || inst.major == 17) {
            found = inst;
        }
    }
    return found;
}

using LabVersions = support::LabTestDir;

TEST_F(LabVersions, TwoVersionsInOnePlan) {
    auto system = server::find_installation(15);
    if (!system) {
        system = server::find_newest_installation();
    }
    ASSERT_TRUE(system) << system.error().message;
    const auto other = fetched_release(system->major);
    if (!other) {
        GTEST_SKIP() << "no fetched release besides " << system->version
                     << " (pglab server fetch 17)";
    }
    const std::string experiment = fmt::format(R"toml(name = "lab-versions"

[servers.installed]
version = "{}"

[servers.fetched]
version = "{}"

[matrix]
server = ["installed", "fetched"]
clients = [1, 2]
scale = 1
duration = 2

[[steps]]
type = "init"
once = true
options = ["--quiet"]

[[steps]]
type = "bench"
options = ["--jobs=1"]

[[steps]]
type = "timed-sql"
name = "vacuum"
sql = "VACUUM pgbench_accounts"
)toml",
                                               system->version, other->version);
    const fs::path file = write("versions.toml", experiment);
    const fs::path results = m_dir / "results";
    const auto r = run_experiment(file, results);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);

    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 4u);
    for (std::size_t i = 0; i < ls.size(); ++i) {
        SCOPED_TRACE(i);
        const auto& l = ls[i];
        EXPECT_EQ(l["status"], "ok") << l.dump();
        const bool installed = l["values"]["server"] == "installed";
        EXPECT_EQ(installed, i < 2); // as written: the first variable varies slowest
        const server::Installation& inst = installed ? *system : *other;
        EXPECT_EQ(l["server"]["name"], installed ? "installed" : "fetched");
        EXPECT_EQ(l["server"]["version"].get<std::string>().rfind(inst.version, 0), 0u)
            << l["server"]["version"]; // server_version: "15.20 (Debian 15.20-0+deb12u1)"
        EXPECT_EQ(l["server"]["version_num"].get<int>() / 10000, inst.major);
        EXPECT_EQ(l["server"]["bin_dir"], inst.bin_dir.string());
        EXPECT_EQ(l["server"]["cluster"], 1);
        const auto& steps = l["steps"];
        ASSERT_EQ(steps.size(), 3u);
        EXPECT_EQ(steps[0]["status"], i % 2 == 0 ? "ok" : "skipped"); // once per server
        for (const std::size_t s : {1u, 2u}) {
            SCOPED_TRACE(s);
            EXPECT_EQ(steps[s]["status"], "ok") << steps[s].dump();
            ASSERT_TRUE(steps[s]["probes"].is_object()) << steps[s].dump();
            EXPECT_GT(steps[s]["probes"].value("wal.bytes", 0.0), 0.0) << steps[s]["probes"];
            EXPECT_TRUE(steps[s]["probes"].contains("server.cpu_s")) << steps[s]["probes"];
        }
        EXPECT_EQ(steps[1]["bench"]["options"]["clients"], l["values"]["clients"]);
        EXPECT_TRUE(steps[2]["server_ms"].is_number()) << steps[2].dump();
    }
    EXPECT_TRUE(fs::exists(results / "servers/installed/1-postgresql.log"));
    EXPECT_TRUE(fs::exists(results / "servers/fetched/1-postgresql.log"));
    expect_clean();
}

} // namespace
