// `pglab server build PATH` on fake source trees whose configure (or meson and ninja) are
// scripts that install a fake postgres: the key of a git worktree (clean, changed, untracked
// files, options) and of a tree without git, reuse and --force, a failed step (its log named,
// nothing of the build left in the cache), a tree with neither configure nor meson.build, and the
// builds in `pglab server list`. The real build of a PostgreSQL source tree runs in CI's
// references stage (server_build_reference_test.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "lab_test_dir.hpp"

namespace {

namespace fs = std::filesystem;

/// A fake configure: writes a Makefile whose `all` runs fake-make (which fails when the tree has
/// a file FAIL_MAKE) and whose `install` runs fake-install into $(DESTDIR)<prefix>.
constexpr const char* k_configure = R"sh(#!/bin/sh
prefix=
for a in "$@"; do
  case "$a" in
    --prefix=*) prefix=${a#--prefix=} ;;
    --fail) echo "configure: error: asked to fail" >&2; exit 1 ;;
  esac
done
src=$(cd "$(dirname "$0")" && pwd)
echo "configure in $(pwd) with: $*"
printf 'all:\n\tsh %s/fake-make\ninstall:\n\tsh %s/fake-install "$(DESTDIR)%s" "$(DESTDIR)"\n' \
  "$src" "$src" "$prefix" > Makefile
)sh";

constexpr const char* k_make = R"sh(#!/bin/sh
dir=$(dirname "$0")
if [ "${MAKELEVEL:-}" != 1 ]; then
  echo "fake-make: MAKELEVEL=${MAKELEVEL:-}: run as a sub-make of another make" >&2; exit 3
fi
if [ -f "$dir/FAIL_MAKE" ]; then echo "fake-make: asked to fail" >&2; exit 2; fi
echo "fake-make: compiled"
)sh";

/// Installs a postgres and an initdb that print the version `postgres -V` prints (and, when the
/// tree has a file INSTALL_OUTSIDE, a module outside the prefix, as Debian's patched tree does).
constexpr const char* k_install = R"sh(#!/bin/sh
if [ -f "$(dirname "$0")/INSTALL_OUTSIDE" ]; then
  mkdir -p "$2/usr/lib/postgresql/19/lib" && echo module > "$2/usr/lib/postgresql/19/lib/dict.so"
fi
mkdir -p "$1/bin"
printf '#!/bin/sh\necho "postgres (PostgreSQL) 19devel"\n' > "$1/bin/postgres"
cp "$1/bin/postgres" "$1/bin/initdb"
chmod +x "$1/bin/postgres" "$1/bin/initdb"
)sh";

class ServerBuild : public support::LabTestDir {
protected:
    void SetUp() override {
        LabTestDir::SetUp();
        m_cache = m_dir / "cache";
        m_source = m_dir / "postgresql";
    }

    /// The fake tree at `dir` with a configure script (or, `meson`, a meson.build).
    void make_tree(const fs::path& dir, bool meson = false) const {
        fs::create_directories(dir / "src");
        std::ofstream(dir / "src" / "main.c") << "int main(void) { return 0; }\n";
        std::ofstream(dir / "fake-make") << k_make;
        std::ofstream(dir / "fake-install") << k_install;
        if (meson) {
            std::ofstream(dir / "meson.build") << "project('postgresql', 'c')\n";
        } else {
            std::ofstream(dir / "configure") << k_configure;
            fs::permissions(dir / "configure", fs::perms::owner_all, fs::perm_options::add);
        }
    }

    void git(const std::vector<std::string>& args) const {
        std::vector<std::string> argv = {"git",
                                         "-C",
                                         m_source.string(),
                                         "-c",
                                         "user.name=pglab",
                                         "-c",
                                         "user.email=pglab@example.invalid"};
        argv.insert(argv.end(), args.begin(), args.end());
        const auto r = support::run_command(argv);
        ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    }

    support::CommandResult build(std::vector<std::string> args,
                                 support::EnvOverrides extra = {}) const {
        args.insert(args.begin(), {support::pglab_binary(), "server", "build"});
        support::EnvOverrides e = env();
        e.emplace_back("PGLAB_CACHE_DIR", m_cache.string());
        // As under `make test-references`: the build's make must not believe it is a sub-make.
        e.emplace_back("MAKELEVEL", "1");
        e.emplace_back("MAKEFLAGS", "-j7");
        e.insert(e.end(), extra.begin(), extra.end());
        return support::run_command(args, e);
    }

    /// The key a successful build printed: "(key K)".
    static std::string key_of(const support::CommandResult& r) {
        std::smatch m;
        const std::regex key(R"(\(key ([^)]+)\))");
        return std::regex_search(r.out, m, key) ? m[1].str() : std::string();
    }

    /// The entries of the cache's builds directory.
    std::vector<std::string> builds() const {
        std::vector<std::string> names;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(m_cache / "builds", ec)) {
            names.push_back(e.path().filename().string());
        }
        std::sort(names.begin(), names.end());
        return names;
    }

    fs::path m_cache;
    fs::path m_source;
};

TEST_F(ServerBuild, AGitTreeIsBuiltOnceUnderItsKeyAndAgainWhenItChanges) {
    make_tree(m_source);
    git({"init", "-q"});
    git({"add", "."});
    git({"commit", "-q", "-m", "base"});
    const auto head = support::run_command({"git", "-C", m_source.string(), "rev-parse", "HEAD"});
    const std::string commit12 = head.out.substr(0, 12);

    const auto first = build({m_source.string()});
    ASSERT_EQ(first.exit_code, 0) << support::describe(first);
    for (const char* line :
         {"configure: ", "configure done in ", "make: make -j",
          "make install: make install DESTDIR=", "built PostgreSQL 19devel from "}) {
        EXPECT_NE(first.out.find(line), std::string::npos) << line << "\n" << first.out;
    }
    const std::string clean = key_of(first);
    EXPECT_TRUE(std::regex_match(clean, std::regex(commit12 + "-clean-[0-9a-f]{8}"))) << clean;
    EXPECT_TRUE(fs::exists(m_cache / "builds" / clean / "bin" / "postgres"));
    EXPECT_TRUE(fs::exists(m_cache / "builds" / clean / "build-info"));
    EXPECT_TRUE(fs::exists(m_cache / "builds" / "logs" / (clean + ".log")));
    EXPECT_EQ(builds(), (std::vector<std::string>{clean, "logs"})) << "no work directory left";

    // The same tree again: found, nothing run.
    const auto again = build({m_source.string()});
    ASSERT_EQ(again.exit_code, 0) << support::describe(again);
    EXPECT_NE(again.out.find("is built already (key " + clean + ")"), std::string::npos)
        << again.out;
    EXPECT_EQ(again.out.find("configure: "), std::string::npos) << again.out;

    // --force builds it again under the same key.
    const auto forced = build({"--force", m_source.string()});
    ASSERT_EQ(forced.exit_code, 0) << support::describe(forced);
    EXPECT_NE(forced.out.find("configure: "), std::string::npos) << forced.out;
    EXPECT_EQ(key_of(forced), clean);

    // An uncommitted change: another key, the commit's own kept.
    std::ofstream(m_source / "src" / "main.c", std::ios::app) << "/* patched */\n";
    const auto patched = build({m_source.string()});
    ASSERT_EQ(patched.exit_code, 0) << support::describe(patched);
    const std::string dirty = key_of(patched);
    EXPECT_TRUE(std::regex_match(dirty, std::regex(commit12 + "-[0-9a-f]{8}-[0-9a-f]{8}")))
        << dirty;
    EXPECT_NE(dirty, clean);
    EXPECT_EQ(dirty.substr(dirty.size() - 8), clean.substr(clean.size() - 8)) << "same options";

    // An untracked file changes the key too; other options another part of it.
    std::ofstream(m_source / "src" / "new.c") << "int x;\n";
    const auto untracked = build({m_source.string()});
    ASSERT_EQ(untracked.exit_code, 0) << support::describe(untracked);
    EXPECT_NE(key_of(untracked), dirty);
    const auto options = build({"--configure=--enable-debug", m_source.string()});
    ASSERT_EQ(options.exit_code, 0) << support::describe(options);
    EXPECT_NE(options.out.find("--enable-debug"), std::string::npos) << options.out;
    const std::string with_debug = key_of(options);
    EXPECT_EQ(with_debug.substr(0, with_debug.size() - 8),
              key_of(untracked).substr(0, with_debug.size() - 8));
    EXPECT_NE(with_debug, key_of(untracked));
    EXPECT_EQ(builds().size(), 5u) << "four builds and the logs";

    // Listed as builds, with their keys and source; not taken for a version.
    const auto list =
        support::run_command({support::pglab_binary(), "server", "list"},
                             {{"PGLAB_CACHE_DIR", m_cache.string()}, {"TMPDIR", m_tmp.string()}});
    ASSERT_EQ(list.exit_code, 0) << support::describe(list);
    EXPECT_NE(list.out.find(" build "), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("key " + clean + ", from " + m_source.string()), std::string::npos)
        << list.out;
}

TEST_F(ServerBuild, ATreeWithoutGitIsKeyedByItsFiles) {
    make_tree(m_source);
    const auto first = build({m_source.string()});
    ASSERT_EQ(first.exit_code, 0) << support::describe(first);
    const std::string key = key_of(first);
    EXPECT_TRUE(std::regex_match(key, std::regex("tree-[0-9a-f]{12}-[0-9a-f]{8}"))) << key;
    std::ofstream(m_source / "src" / "main.c", std::ios::app) << "/* patched */\n";
    const auto changed = build({m_source.string()});
    ASSERT_EQ(changed.exit_code, 0) << support::describe(changed);
    EXPECT_NE(key_of(changed), key);
}

TEST_F(ServerBuild, AFailedStepNamesItsLogAndLeavesNothingOfTheBuild) {
    make_tree(m_source);
    std::ofstream(m_source / "FAIL_MAKE") << "\n";
    const auto r = build({m_source.string()});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_NE(r.err.find("failed at make (exited with code 2); its log is " + m_cache.string()
                         + "/builds/logs/tree-"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("fake-make: asked to fail"), std::string::npos) << "the log's last lines\n"
                                                                         << r.err;
    EXPECT_EQ(builds(), std::vector<std::string>{"logs"});

    // A configure that fails: the same, at configure.
    fs::remove(m_source / "FAIL_MAKE");
    const auto c = build({"--configure=--fail", m_source.string()});
    EXPECT_EQ(c.exit_code, 1) << support::describe(c);
    EXPECT_NE(c.err.find("failed at configure"), std::string::npos) << c.err;
    EXPECT_NE(c.err.find("configure: error: asked to fail"), std::string::npos) << c.err;
    EXPECT_EQ(builds(), std::vector<std::string>{"logs"});
}

TEST_F(ServerBuild, AnInstallOutsideThePrefixIsRefused) {
    make_tree(m_source);
    std::ofstream(m_source / "INSTALL_OUTSIDE") << "\n";
    const auto r = build({m_source.string()});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_NE(r.err.find("installed files outside its prefix"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("such as \"/usr/lib/postgresql/19/lib/dict.so\""), std::string::npos)
        << r.err;
    EXPECT_EQ(builds(), std::vector<std::string>{"logs"});
}

TEST_F(ServerBuild, ATreeWithNeitherConfigureNorMesonIsRefused) {
    fs::create_directories(m_source);
    const auto r = build({m_source.string()});
    EXPECT_EQ(r.exit_code, 1) << support::describe(r);
    EXPECT_NE(r.err.find("\"" + m_source.string()
                         + "\" is not a PostgreSQL source tree: it has neither configure nor "
                           "meson.build"),
              std::string::npos)
        << r.err;
    const auto missing = build({(m_dir / "nowhere").string()});
    EXPECT_EQ(missing.exit_code, 1) << support::describe(missing);
    EXPECT_NE(missing.err.find("is not a directory"), std::string::npos) << missing.err;
}

TEST_F(ServerBuild, AMesonTreeIsSetUpBuiltAndInstalledWithMeson) {
    make_tree(m_source, true);
    // meson and ninja as scripts first on PATH: setup records its arguments, install runs
    // fake-install into $DESTDIR<prefix>.
    const fs::path bin = m_dir / "bin";
    fs::create_directories(bin);
    std::ofstream(bin / "meson") << "#!/bin/sh\n"
                                    "echo \"meson $*\"\n"
                                    "if [ \"$1\" = setup ]; then\n"
                                    "  for a in \"$@\"; do case \"$a\" in --prefix=*) "
                                    "echo \"${a#--prefix=}\" > \"$2/prefix\";; esac; done\n"
                                    "elif [ \"$1\" = install ]; then\n"
                                    "  sh "
                                 << (m_source / "fake-install").string()
                                 << " \"$DESTDIR$(cat \"$3/prefix\")\"\n"
                                    "fi\n";
    std::ofstream(bin / "ninja") << "#!/bin/sh\necho \"ninja $*\"\n";
    fs::permissions(bin / "meson", fs::perms::owner_all, fs::perm_options::add);
    fs::permissions(bin / "ninja", fs::perms::owner_all, fs::perm_options::add);
    const char* path = std::getenv("PATH");
    const auto r =
        build({m_source.string()},
              {{"PATH", bin.string() + ":" + (path != nullptr ? path : "/usr/bin:/bin")}});
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    EXPECT_NE(r.out.find("meson setup: meson setup "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ninja: ninja -C "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("built PostgreSQL 19devel"), std::string::npos) << r.out;
}

TEST_F(ServerBuild, AnExperimentSaysItBuildsItsTreesAndWarnsWhenTwoServersAreOneBuild) {
    make_tree(m_source);
    git({"init", "-q"});
    git({"add", "."});
    git({"commit", "-q", "-m", "base"});
    // A relative source is the file's directory's: both servers name the same tree.
    const fs::path file = m_dir / "ab.toml";
    std::ofstream(file) << "name = \"ab\"\n"
                           "[servers.a]\nsource = \"postgresql\"\n"
                           "[servers.b]\nsource = \""
                        << m_source.string()
                        << "/\"\n"
                           "[matrix]\nserver = [\"a\", \"b\"]\n"
                           "[[steps]]\ntype = \"sql\"\nsql = \"SELECT 1\"\n";
    support::EnvOverrides e = env();
    e.emplace_back("PGLAB_CACHE_DIR", m_cache.string());
    const auto r =
        support::run_command({support::pglab_binary(), "run", "--dry-run", file.string()}, e);
    ASSERT_EQ(r.exit_code, 0) << support::describe(r);
    const std::string all = r.out + r.err;
    EXPECT_NE(all.find("server \"a\": " + m_source.string()
                       + " is not built: the run builds it "
                         "first"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find("servers \"a\" and \"b\" are one build (key "), std::string::npos) << all;
    EXPECT_TRUE(builds().empty()) << "a dry run builds nothing";
}

// A missing tree is named with the command that makes it, when the file gives one (issue 62,
// stage 4); the command is only for a tree.
TEST_F(ServerBuild, AMissingTreeIsNamedWithTheCommandThatMakesIt) {
    const auto dry = [&](const std::string& server) {
        const fs::path file = m_dir / "missing.toml";
        std::ofstream(file, std::ios::trunc)
            << "name = \"missing\"\n[servers.a]\n"
            << server << "[[steps]]\ntype = \"sql\"\nsql = \"SELECT 1\"\n";
        support::EnvOverrides e = env();
        e.emplace_back("PGLAB_CACHE_DIR", m_cache.string());
        return support::run_command({support::pglab_binary(), "run", "--dry-run", file.string()},
                                    e);
    };
    const std::string where = (m_dir / "missing.toml").string() + ":3:10: \""
                              + (m_dir / "tree").string() + "\" is not a directory: ";
    const auto named = dry("source = \"tree\"\nsource_made_by = \"scripts/make-tree\"\n");
    EXPECT_EQ(named.exit_code, 1) << support::describe(named);
    EXPECT_NE(named.err.find(where + "`scripts/make-tree` makes it (the file's source_made_by)"),
              std::string::npos)
        << named.err;
    const auto unnamed = dry("source = \"tree\"\n");
    EXPECT_EQ(unnamed.exit_code, 1) << support::describe(unnamed);
    EXPECT_NE(unnamed.err.find(where + "point source at a PostgreSQL source tree"),
              std::string::npos)
        << unnamed.err;
    const auto alone = dry("version = \"15\"\nsource_made_by = \"scripts/make-tree\"\n");
    EXPECT_EQ(alone.exit_code, 1) << support::describe(alone);
    EXPECT_NE(alone.err.find(":4:1: \"source_made_by\" needs \"source\" in [servers.a]"),
              std::string::npos)
        << alone.err;
}

} // namespace
