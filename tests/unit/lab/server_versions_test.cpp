// lab/server and cli/server: ordering and matching of PostgreSQL versions, the choice of an npm
// release for "17" / "17.8", the release cache directory, and PGLAB_POSTGRES_PATH listings.
#include "cli/server_command.hpp"
#include "lab/server/installation.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace pglab::lab::server {
namespace {

TEST(ServerVersions, Compare) {
    EXPECT_GT(compare_versions("17.10", "17.9"), 0);
    EXPECT_GT(compare_versions("17.1", "17"), 0);
    EXPECT_LT(compare_versions("18beta1", "18"), 0);
    EXPECT_LT(compare_versions("18beta1", "18.0"), 0);
    EXPECT_GT(compare_versions("18beta2", "18beta1"), 0);
    EXPECT_LT(compare_versions("18rc1", "18.1"), 0);
    EXPECT_EQ(compare_versions("15.10", "15.10"), 0);
    EXPECT_GT(compare_versions("17.8.0-beta.16", "17.8.0-beta.15"), 0);
    EXPECT_GT(compare_versions("17.10.0-beta.15", "17.9.0-beta.17"), 0);
}

TEST(ServerVersions, Matches) {
    EXPECT_TRUE(version_matches("17.8", "17"));
    EXPECT_TRUE(version_matches("17.8", "17.8"));
    EXPECT_TRUE(version_matches("18beta1", "18"));
    EXPECT_FALSE(version_matches("17.8", "1"));
    EXPECT_FALSE(version_matches("17.80", "17.8"));
    EXPECT_FALSE(version_matches("17.8", "17.8.1"));
    EXPECT_FALSE(version_matches("17.8", ""));
}

TEST(ServerVersions, ReleasePgVersion) {
    EXPECT_EQ(cli::release_pg_version("17.8.0-beta.16"), "17.8");
    EXPECT_EQ(cli::release_pg_version("11.22.1-beta.11"), "11.22");
    EXPECT_EQ(cli::release_pg_version("17"), "");
    EXPECT_EQ(cli::release_pg_version("x.y.z"), "");
}

TEST(ServerVersions, ChooseRelease) {
    const std::vector<std::string> published = {
        "12.22.0-beta.14", "12.22.0-beta.15", "17.2.0-beta.15", "17.8.0-beta.15", "17.8.0-beta.16",
        "17.10.0-beta.16", "17.10.0-beta.17", "17.9.0-beta.17", "18.0.0-beta.15", "junk"};
    EXPECT_EQ(cli::choose_release(published, "17"), "17.10.0-beta.17");
    EXPECT_EQ(cli::choose_release(published, "17.8"), "17.8.0-beta.16");
    EXPECT_EQ(cli::choose_release(published, "12"), "12.22.0-beta.15");
    EXPECT_EQ(cli::choose_release(published, "17.8.0-beta.15"), "17.8.0-beta.15");
    EXPECT_EQ(cli::choose_release(published, "1"), std::nullopt); // not 12.x, 17.x, 18.x
    EXPECT_EQ(cli::choose_release(published, "16"), std::nullopt);
    EXPECT_EQ(cli::choose_release(published, "17.3"), std::nullopt);
}

TEST(ServerVersions, CacheDirectoryFromTheEnvironment) {
    ::setenv("PGLAB_CACHE_DIR", "/somewhere/pglab-cache", 1);
    EXPECT_EQ(release_cache_dir(), std::filesystem::path("/somewhere/pglab-cache/postgres"));
    ::unsetenv("PGLAB_CACHE_DIR");
    if (::geteuid() == 0) {
        EXPECT_EQ(release_cache_dir(), std::filesystem::path("/var/cache/pglab/postgres"));
    }
}

TEST(ServerVersions, ResolveNamesMissingVersions) {
    ::setenv("PGLAB_CACHE_DIR", "/nonexistent/pglab-cache", 1);
    const Result<Installation> r = resolve_installation("9");
    ::unsetenv("PGLAB_CACHE_DIR");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "PostgreSQL 9 is not installed");
    EXPECT_NE(r.error().hint.find("pglab server fetch 9"), std::string::npos);
}

TEST(ServerVersions, ResolveFindsTheSystemInstallation) {
    const Result<Installation> newest = find_newest_installation();
    if (!newest) {
        GTEST_SKIP() << "no PostgreSQL installation";
    }
    const Result<Installation> r = resolve_installation(std::to_string(newest->major));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->major, newest->major);
    const Result<Installation> by_dir = resolve_installation(newest->bin_dir.string());
    ASSERT_TRUE(by_dir);
    EXPECT_EQ(by_dir->version, newest->version);
    bool listed = false;
    for (const Installation& inst : list_installations()) {
        listed = listed || (inst.origin == "system" && inst.version == newest->version);
    }
    EXPECT_TRUE(listed);
}

} // namespace
} // namespace pglab::lab::server
