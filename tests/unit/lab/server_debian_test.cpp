// lab/server: what `pglab server fetch 19` reads without a network: the machine's apt sources in
// both formats and the Debian archive chosen among them, the stanzas and relation fields apt
// prints, the library closure of the server's packages, and Debian's version as PostgreSQL's.
#include "lab/server/apt_sources.hpp"
#include "lab/server/debian_package.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace pglab::lab::server {
namespace {

namespace fs = std::filesystem;

TEST(AptSources, OneLineEntriesWithOptionsAndComments) {
    const auto sources = parse_sources_list("# a comment\n"
                                            "\n"
                                            "deb [arch=amd64 signed-by=/k/debian.gpg] "
                                            "http://mirror.example/debian bookworm main contrib\n"
                                            "deb-src http://deb.debian.org/debian bookworm main\n"
                                            "deb http://x.example/ broken\n" // too few words
                                            "deb [enabled=no] http://off.example/debian sid main "
                                            "# trailing comment\n",
                                            "/etc/apt/sources.list");
    ASSERT_EQ(sources.size(), 3u);
    EXPECT_EQ(sources[0].types, std::vector<std::string>{"deb"});
    EXPECT_EQ(sources[0].uris, std::vector<std::string>{"http://mirror.example/debian"});
    EXPECT_EQ(sources[0].suites, std::vector<std::string>{"bookworm"});
    EXPECT_EQ(sources[0].components, (std::vector<std::string>{"main", "contrib"}));
    EXPECT_EQ(sources[0].signed_by, "/k/debian.gpg");
    EXPECT_EQ(sources[0].origin, "/etc/apt/sources.list:3");
    EXPECT_EQ(sources[1].types, std::vector<std::string>{"deb-src"});
    EXPECT_TRUE(sources[1].enabled);
    EXPECT_FALSE(sources[2].enabled);
    EXPECT_EQ(sources[2].components, std::vector<std::string>{"main"});
}

TEST(AptSources, Deb822StanzasAsDebian12WritesThem) {
    const auto sources =
        parse_deb822_sources("Types: deb deb-src\n"
                             "# http://snapshot.debian.org/archive/debian/20250520T000000Z\n"
                             "URIs: http://deb.debian.org/debian\n"
                             "Suites: bookworm bookworm-updates\n"
                             "Components: main\n"
                             "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n"
                             "\n"
                             "types: deb\n"
                             "uris: https://other.example/repo\n"
                             "suites: stable\n"
                             "components: main\n"
                             "signed-by:\n"
                             " -----BEGIN PGP PUBLIC KEY BLOCK-----\n"
                             " .\n"
                             " mQINBF...\n"
                             "enabled: no\n"
                             "\n"
                             "Suites: lonely\n", // no Types or URIs: skipped
                             "debian.sources");
    ASSERT_EQ(sources.size(), 2u);
    EXPECT_EQ(sources[0].types, (std::vector<std::string>{"deb", "deb-src"}));
    EXPECT_EQ(sources[0].suites, (std::vector<std::string>{"bookworm", "bookworm-updates"}));
    EXPECT_EQ(sources[0].signed_by, "/usr/share/keyrings/debian-archive-keyring.gpg");
    EXPECT_EQ(sources[0].origin, "debian.sources:1");
    EXPECT_EQ(sources[1].uris, std::vector<std::string>{"https://other.example/repo"});
    EXPECT_EQ(sources[1].signed_by, "") << "an inline key block is not a keyring file";
    EXPECT_FALSE(sources[1].enabled);
}

TEST(AptSources, ReadsTheListAndTheDirectoryButNotDisabledFiles) {
    char tmpl[] = "/tmp/pglab-apt-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    const fs::path etc = tmpl;
    fs::create_directories(etc / "sources.list.d");
    std::ofstream(etc / "sources.list") << "deb http://a.example/debian bookworm main\n";
    std::ofstream(etc / "sources.list.d" / "b.sources")
        << "Types: deb\nURIs: http://b.example/debian\nSuites: trixie\nComponents: main\n";
    std::ofstream(etc / "sources.list.d" / "c.list.disabled-by-farm")
        << "deb http://c.example/debian sid main\n";
    const auto sources = read_apt_sources(etc);
    ASSERT_EQ(sources.size(), 2u);
    EXPECT_EQ(sources[0].uris.front(), "http://a.example/debian");
    EXPECT_EQ(sources[1].uris.front(), "http://b.example/debian");
    fs::remove_all(etc);
}

TEST(AptSources, TheArchiveIsTheFirstEnabledDebianMainSuite) {
    std::vector<AptSource> sources = parse_sources_list(
        "deb http://security.debian.org/debian-security bookworm-security main\n"
        "deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_20.x "
        "nodistro main\n"
        "deb-src http://src.example/debian bookworm main\n"
        "deb [enabled=no] http://disabled.example/debian bookworm main\n"
        "deb http://contrib.example/debian bookworm contrib\n"
        "deb [signed-by=/k/mirror.gpg] http://mirror.example/debian/ bookworm main\n"
        "deb http://later.example/debian trixie main\n",
        "sources.list");
    auto archive = debian_archive(sources, "");
    ASSERT_TRUE(archive) << archive.error().message;
    EXPECT_EQ(archive->mirror, "http://mirror.example/debian") << "no trailing slash";
    EXPECT_EQ(archive->keyring, "/k/mirror.gpg");
    EXPECT_EQ(archive->why, "sources.list:6 (bookworm)");

    // A mirror under a path of its own, with a release named after this was written.
    sources = parse_sources_list("deb http://m.example/debian zebra main\n", "s.list");
    archive = debian_archive(sources, "");
    ASSERT_TRUE(archive) << archive.error().message;
    EXPECT_EQ(archive->keyring, k_debian_keyring);

    // PGLAB_DEBIAN_MIRROR wins, with Debian's keyring.
    archive = debian_archive(sources, "http://override.example/debian/");
    ASSERT_TRUE(archive);
    EXPECT_EQ(archive->mirror, "http://override.example/debian");
    EXPECT_EQ(archive->why, "PGLAB_DEBIAN_MIRROR");
}

TEST(AptSources, NoDebianSourceNamesTheFilesReadAndTheOverride) {
    const auto sources = parse_sources_list("deb http://archive.ubuntu.com/ubuntu jammy main\n",
                                            "/etc/apt/sources.list");
    const auto archive = debian_archive(sources, "");
    ASSERT_FALSE(archive);
    EXPECT_EQ(archive.error().message, "no apt source of the machine is Debian's archive");
    EXPECT_EQ(archive.error().detail, "Sources read: /etc/apt/sources.list.");
    EXPECT_NE(archive.error().hint.find("PGLAB_DEBIAN_MIRROR"), std::string::npos);
    EXPECT_FALSE(debian_archive({}, ""));
}

TEST(DebianPackages, StanzasAndRelations) {
    const auto stanzas = parse_stanzas("Package: postgresql-19\n"
                                       "Version: 19~rc1-1\n"
                                       "Depends: locales | locales-all, libc6 (>= 2.43),\n"
                                       " libpq5 (>= 17~~), libssl3t64:any (>= 3.4.0)\n"
                                       "Description: object-relational SQL database\n"
                                       " more text\n"
                                       "\n"
                                       "Package: libc6\n"
                                       "Version: 2.43-1\n");
    ASSERT_EQ(stanzas.size(), 2u);
    EXPECT_EQ(stanzas[0].package(), "postgresql-19");
    EXPECT_EQ(stanzas[0].version(), "19~rc1-1");
    EXPECT_EQ(stanzas[1].package(), "libc6");
    EXPECT_EQ(stanzas[1].get("depends"), "");

    const auto deps = parse_relations(stanzas[0].get("depends"));
    ASSERT_EQ(deps.size(), 4u);
    ASSERT_EQ(deps[0].size(), 2u);
    EXPECT_EQ(deps[0][0].name, "locales");
    EXPECT_EQ(deps[0][1].name, "locales-all");
    EXPECT_EQ(deps[1][0].name, "libc6");
    EXPECT_EQ(deps[1][0].op, ">=");
    EXPECT_EQ(deps[1][0].version, "2.43");
    EXPECT_EQ(deps[2][0].version, "17~~");
    EXPECT_EQ(deps[3][0].name, "libssl3t64") << "the architecture qualifier is dropped";
    EXPECT_TRUE(parse_relations("").empty());
}

TEST(DebianPackages, LibrariesAreFollowedAndAnInstalledSystemIsNot) {
    EXPECT_TRUE(is_library_package("libc6"));
    EXPECT_TRUE(is_library_package("libicu78"));
    EXPECT_TRUE(is_library_package("zlib1g"));
    EXPECT_FALSE(is_library_package("postgresql-common"));
    EXPECT_FALSE(is_library_package("debconf"));
    EXPECT_FALSE(is_library_package("locales"));
    EXPECT_FALSE(is_library_package("tzdata"));
}

/// A fake archive for library_closure: the stanzas apt-cache would print, by query.
struct FakeArchive {
    std::map<std::string, std::string> by_query; // "name" or "name=version" -> stanza text
    std::vector<std::vector<std::string>> calls;

    std::vector<DebianStanza> operator()(const std::vector<std::string>& queries) {
        calls.push_back(queries);
        std::string text;
        for (const std::string& q : queries) {
            if (const auto it = by_query.find(q); it != by_query.end()) {
                text += it->second + "\n\n";
            }
        }
        return parse_stanzas(text);
    }
};

TEST(DebianPackages, TheClosureFollowsLibrariesOnlyTakesPinnedVersionsAndFallsBack) {
    FakeArchive archive;
    archive.by_query = {
        {"postgresql-19=19~rc1-1",
         "Package: postgresql-19\nVersion: 19~rc1-1\nDepends: postgresql-common (>= 275~), "
         "postgresql-client-19 (= 19~rc1-1), libc6 (>= 2.43), libpq5 (>= 17~~), "
         "libvirtual-only | libzstd1, tzdata"},
        {"postgresql-client-19=19~rc1-1",
         "Package: postgresql-client-19\nVersion: 19~rc1-1\nDepends: libpq5 (>= 19~rc1), "
         "sensible-utils, libc6 (>= 2.38), libzstd1"},
        {"libpq5=19~rc1-1", "Package: libpq5\nVersion: 19~rc1-1\nDepends: libc6 (>= 2.38)"},
        {"libpq5", "Package: libpq5\nVersion: 18.1-1\n"}, // sid's: must not be taken
        {"libc6", "Package: libc6\nVersion: 2.43-1\nDepends: libgcc-s1"},
        {"libgcc-s1", "Package: libgcc-s1\nVersion: 15-1\nDepends: gcc-15-base, libc6"},
        {"libzstd1", "Package: libzstd1\nVersion: 1.5.7-1\nPre-Depends: libc6 (>= 2.14)"},
    };
    const std::map<std::string, std::string> pinned = {{"postgresql-19", "19~rc1-1"},
                                                       {"postgresql-client-19", "19~rc1-1"},
                                                       {"libpq5", "19~rc1-1"}};
    std::vector<std::string> missing;
    const auto packages = library_closure({"postgresql-19", "postgresql-client-19", "libpq5"},
                                          pinned, std::ref(archive), missing);
    EXPECT_TRUE(missing.empty());
    std::map<std::string, std::string> got;
    for (const DebianStanza& p : packages) {
        EXPECT_TRUE(got.emplace(p.package(), p.version()).second) << "twice: " << p.package();
    }
    const std::map<std::string, std::string> expected = {
        {"postgresql-19", "19~rc1-1"}, {"postgresql-client-19", "19~rc1-1"},
        {"libpq5", "19~rc1-1"},        {"libc6", "2.43-1"},
        {"libgcc-s1", "15-1"},         {"libzstd1", "1.5.7-1"}};
    EXPECT_EQ(got, expected);
    ASSERT_FALSE(archive.calls.empty());
    EXPECT_EQ(archive.calls.front(),
              (std::vector<std::string>{"postgresql-19=19~rc1-1", "postgresql-client-19=19~rc1-1",
                                        "libpq5=19~rc1-1"}))
        << "one batch a round";
    for (const auto& call : archive.calls) {
        for (const std::string& q : call) {
            EXPECT_NE(q, "libpq5") << "a pinned package is asked for at its version";
            EXPECT_NE(q, "postgresql-common");
            EXPECT_NE(q, "tzdata");
        }
    }
}

TEST(DebianPackages, ALibraryNoSuiteHasIsMissing) {
    FakeArchive archive;
    archive.by_query = {
        {"postgresql-19", "Package: postgresql-19\nVersion: 19-1\nDepends: libgone1, libc6"},
        {"libc6", "Package: libc6\nVersion: 2.43-1\n"},
    };
    std::vector<std::string> missing;
    const auto packages = library_closure({"postgresql-19"}, {}, std::ref(archive), missing);
    EXPECT_EQ(missing, std::vector<std::string>{"libgone1"});
    EXPECT_EQ(packages.size(), 2u);
}

TEST(DebianPackages, PostgresVersionOfDebian) {
    EXPECT_EQ(postgres_version_of_debian("19~rc1-1"), "19rc1");
    EXPECT_EQ(postgres_version_of_debian("19~beta2-1"), "19beta2");
    EXPECT_EQ(postgres_version_of_debian("18.1-1.pgdg13+1"), "18.1");
    EXPECT_EQ(postgres_version_of_debian("1:17.2-3"), "17.2");
    EXPECT_EQ(postgres_version_of_debian("19.0"), "19.0");
    EXPECT_EQ(postgres_version_of_debian("rc1-1"), "");
    EXPECT_EQ(postgres_version_of_debian(""), "");
}

} // namespace
} // namespace pglab::lab::server
