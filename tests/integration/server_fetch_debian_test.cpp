// `pglab server fetch 19`: PostgreSQL 19 from Debian's archive (npm publishes up to 18), its
// programs relocated to the C library unpacked beside them. One case checks the 19 that
// scripts/fetch-releases put into the machine's cache (make test); one fetches into an empty cache
// of its own, which downloads about 40 MB and sid's package lists, so it carries the label
// `reference` (CI runs it, make test does not: tests/case-properties.cmake).
#include "lab/server/installation.hpp"
#include "lab/server/throwaway_cluster.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;
namespace server = pglab::lab::server;

constexpr int k_debian_major = 19;

/// What every 19 from Debian must do: start a server of 19 that answers, its pgbench speak as
/// 19, and its programs load the C library of the cache (their ELF interpreter is there).
void expect_runs_here(const server::Installation& inst, const fs::path& parent_dir) {
    EXPECT_EQ(inst.major, k_debian_major) << inst.version;
    const fs::path dir = inst.bin_dir.parent_path();
    EXPECT_TRUE(fs::exists(dir / "debian-version")) << dir;

    server::ClusterOptions o;
    o.bin_dir = inst.bin_dir;
    o.parent_dir = parent_dir;
    auto cluster = server::ThrowawayCluster::create(o);
    ASSERT_TRUE(cluster) << cluster.error().message << "\n" << cluster.error().detail;
    const auto version = cluster->psql("SHOW server_version_num");
    ASSERT_TRUE(version) << version.error().message;
    EXPECT_EQ(std::stoi(*version) / 10000, k_debian_major);
    ASSERT_TRUE(cluster->remove());

    const auto pgbench = support::run_command({inst.tool("pgbench").string(), "-V"});
    ASSERT_EQ(pgbench.exit_code, 0) << support::describe(pgbench);
    EXPECT_EQ(pgbench.out.rfind(fmt::format("pgbench (PostgreSQL) {}", k_debian_major), 0), 0u)
        << pgbench.out;

    const auto interpreter = support::run_command(
        {"patchelf", "--print-interpreter", (inst.bin_dir / "postgres").string()});
    ASSERT_EQ(interpreter.exit_code, 0) << support::describe(interpreter);
    EXPECT_EQ(interpreter.out.rfind(fs::canonical(dir).string() + "/root/", 0), 0u)
        << interpreter.out;
}

class ServerFetchDebian : public support::LabTestDir {};

TEST_F(ServerFetchDebian, NineteenInTheMachineCacheRunsHere) {
    std::optional<server::Installation> found;
    for (const server::Installation& inst : server::list_installations()) {
        if (inst.major == k_debian_major && inst.origin == "cache") {
            found = inst;
            break;
        }
    }
    if (!found) {
        GTEST_SKIP() << "no PostgreSQL " << k_debian_major << " in " << server::release_cache_dir()
                     << ": scripts/fetch-releases fetches it (make test does)";
    }
    expect_runs_here(*found, m_tmp);

    // Listed as the cache's, and a second fetch finds it without reading Debian's lists (the
    // mirror given serves nothing).
    const auto list = support::run_command({support::pglab_binary(), "server", "list"}, env());
    ASSERT_EQ(list.exit_code, 0) << support::describe(list);
    EXPECT_NE(list.out.find(found->bin_dir.string()), std::string::npos) << list.out;
    support::EnvOverrides e = env();
    e.emplace_back("PGLAB_DEBIAN_MIRROR", "file:///nonexistent");
    const auto again = support::run_command(
        {support::pglab_binary(), "server", "fetch", std::to_string(k_debian_major)}, e);
    ASSERT_EQ(again.exit_code, 0) << support::describe(again);
    EXPECT_NE(again.out.find("is in the cache already: " + found->bin_dir.string()),
              std::string::npos)
        << again.out;
    expect_clean();
}

TEST_F(ServerFetchDebian, IntoAnEmptyCacheThenFoundAgain) {
    const fs::path cache = m_dir / "cache";
    support::EnvOverrides e = env();
    e.emplace_back("PGLAB_CACHE_DIR", cache.string());
    const auto first = support::run_command(
        {support::pglab_binary(), "server", "fetch", std::to_string(k_debian_major)}, e);
    ASSERT_EQ(first.exit_code, 0) << support::describe(first);
    for (const char* line : {"looking in Debian's archive", "reading Debian's package lists",
                             "downloading postgresql-19 ", "relocating the programs",
                             "started and connected: PostgreSQL 19"}) {
        EXPECT_NE(first.out.find(line), std::string::npos) << line << "\n" << first.out;
    }
    std::vector<std::string> entries;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(cache / "postgres", ec)) {
        entries.push_back(entry.path().filename().string());
    }
    ASSERT_EQ(entries.size(), 1u) << "one release, no staging directory left";
    EXPECT_EQ(entries[0].rfind(std::to_string(k_debian_major), 0), 0u) << entries[0];
    auto inst = server::installation_at(cache / "postgres" / entries[0] / "bin");
    ASSERT_TRUE(inst) << inst.error().message;
    expect_runs_here(*inst, m_tmp);

    e.emplace_back("PGLAB_DEBIAN_MIRROR", "file:///nonexistent");
    const auto again = support::run_command(
        {support::pglab_binary(), "server", "fetch", std::to_string(k_debian_major)}, e);
    ASSERT_EQ(again.exit_code, 0) << support::describe(again);
    EXPECT_NE(again.out.find("is in the cache already"), std::string::npos) << again.out;
    EXPECT_EQ(again.out.find("downloading"), std::string::npos) << again.out;
    expect_clean();
}

} // namespace
