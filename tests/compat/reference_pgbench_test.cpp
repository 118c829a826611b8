// pglab as pgbench 18 and 19 (PGLAB_PGBENCH_VERSION) against the reference pgbench of that
// release: 18 built from Debian's source package by scripts/build-pgbench-reference, 19 Debian's
// own binary of 19rc1 that `pglab server fetch 19` relocated into pglab's cache (Debian serves no
// source of 19). The same command lines, the same exit codes, stdout keys and stderr (numbers
// masked), byte for byte where nothing varies (--help, option errors). The server is the test
// server (15).
#include "lab/server/installation.hpp"
#include "support/compat.hpp"
#include "support/run_command.hpp"
#include "support/test_server.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using support::CommandResult;

/// The reference pgbench of `major`: $PGLAB_TEST_PGBENCH<major>, else 18's of
/// scripts/build-pgbench-reference, or the pgbench of the release cache's <major> (fetched from
/// Debian). Empty when there is none.
fs::path reference_pgbench(int major) {
    const std::string variable = "PGLAB_TEST_PGBENCH" + std::to_string(major);
    if (const char* given = std::getenv(variable.c_str()); given != nullptr && *given) {
        return given;
    }
    if (major == 18) {
        return pglab::lab::server::release_cache_dir().parent_path() / "pgbench-reference"
               / "pgbench-18" / "bin" / "pgbench";
    }
    for (const auto& inst : pglab::lab::server::list_installations()) {
        if (inst.origin == "cache" && inst.major == major && fs::exists(inst.tool("pgbench"))) {
            return inst.tool("pgbench");
        }
    }
    return {};
}

/// Where the reference of `major` comes from, for a skipped case.
std::string how_to_get(int major) {
    return major == 18 ? "scripts/build-pgbench-reference builds it (make test does)"
                       : "pglab server fetch " + std::to_string(major)
                             + " puts it in the cache (scripts/fetch-releases, make test)";
}

/// The banner names the release each program speaks as; the reference adds Debian's package
/// version ("18.6 (Debian 18.6-3)", "19rc1 (Debian 19~rc1-1)"), pglab does not.
std::string without_package_version(std::string out, int major) {
    const std::regex debian("^pgbench \\(" + std::to_string(major)
                            + R"((\.[0-9]+|[a-z]+[0-9]+)( \(Debian [^)]*\))?)");
    return std::regex_replace(out, debian, "pgbench (" + std::to_string(major) + ".x",
                              std::regex_constants::format_first_only);
}

class AsReferencePgbench : public ::testing::TestWithParam<int> {
protected:
    void SetUp() override {
        m_major = GetParam();
        m_reference = reference_pgbench(m_major);
        m_db = "as_pgbench" + std::to_string(m_major);
        if (m_reference.empty() || !fs::exists(m_reference)) {
            GTEST_SKIP() << "no reference pgbench " << m_major << " (" << m_reference.string()
                         << "): " << how_to_get(m_major);
        }
        // Each case is a process of its own (ctest): its database is made anew, one per major
        // so that the two majors' cases may run side by side.
        support::run_sql("drop database if exists " + m_db + " with (force)");
        support::run_sql("create database " + m_db);
        char tmpl[] = "/tmp/pglab-reference-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        m_dir = tmpl;
    }

    void TearDown() override {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    /// `args` through the reference pgbench (`pglab` false) or through pglab as that release.
    CommandResult run(bool pglab, const std::vector<std::string>& args) const {
        std::vector<std::string> argv;
        if (pglab) {
            argv = {support::pglab_binary(), "bench"};
        } else {
            argv = {m_reference.string()};
        }
        argv.insert(argv.end(), args.begin(), args.end());
        support::EnvOverrides env = support::server_env(m_db);
        env.emplace_back("PGLAB_PGBENCH_VERSION", std::to_string(m_major));
        CommandResult r = support::run_command(argv, env);
        r.out = without_package_version(r.out, m_major);
        return r;
    }

    ::testing::AssertionResult same(const std::vector<std::string>& args) const {
        return support::same_behaviour(run(false, args), run(true, args));
    }

    /// same() for -i: each program starts from a database without pgbench's tables.
    ::testing::AssertionResult same_init(const std::vector<std::string>& args) const {
        drop_tables();
        const CommandResult pg = run(false, args);
        drop_tables();
        return support::same_behaviour(pg, run(true, args));
    }

    /// `args` through the reference and through a link named pgbench to pglab: the same exit
    /// code, stdout and stderr byte for byte (getopt names argv[0], a path of its own for each).
    void expect_same_through_link(const std::vector<std::string>& args) const {
        const fs::path link = m_dir / "pgbench";
        if (!fs::exists(fs::symlink_status(link))) {
            fs::create_symlink(support::pglab_binary(), link);
        }
        std::vector<std::string> pg = {m_reference.string()};
        std::vector<std::string> lab = {link.string()};
        pg.insert(pg.end(), args.begin(), args.end());
        lab.insert(lab.end(), args.begin(), args.end());
        support::EnvOverrides env = {{"PGLAB_PGBENCH_VERSION", std::to_string(m_major)}};
        const auto a = support::run_command(pg, env);
        const auto b = support::run_command(lab, env);
        EXPECT_EQ(b.exit_code, a.exit_code) << support::describe(b);
        EXPECT_EQ(b.out, a.out);
        std::string expected_err = a.err;
        for (size_t at = expected_err.find(m_reference.string()); at != std::string::npos;
             at = expected_err.find(m_reference.string(), at)) {
            expected_err.replace(at, m_reference.string().size(), link.string());
        }
        EXPECT_EQ(b.err, expected_err);
    }

    void drop_tables() const {
        support::run_sql("drop table if exists pgbench_accounts, pgbench_branches, "
                         "pgbench_history, pgbench_tellers cascade",
                         m_db);
    }

    int m_major = 0;
    fs::path m_reference;
    std::string m_db;
    fs::path m_dir;
};

INSTANTIATE_TEST_SUITE_P(Release, AsReferencePgbench, ::testing::Values(18, 19),
                         [](const ::testing::TestParamInfo<int>& release) {
                             return "pgbench" + std::to_string(release.param);
                         });

TEST_P(AsReferencePgbench, HelpAndOptionErrorsThroughAPgbenchLinkAreByteForByte) {
    const std::vector<std::vector<std::string>> cases = {{"--help"},
                                                         {"-c", "three"},
                                                         {"-d"},
                                                         {"-x"},
                                                         {"-t", "1", "-T", "1"},
                                                         {"--no-such-option"},
                                                         {"-i", "--exit-on-abort"},
                                                         {"--debug", "--partitions=-1", "-i"}};
    for (const auto& args : cases) {
        SCOPED_TRACE(args.front());
        expect_same_through_link(args);
    }
}

TEST_P(AsReferencePgbench, InitialisationAndDashDNamesTheDatabase) {
    // Client-side generation (18 on): a COPY per table, each progress line naming its table.
    EXPECT_TRUE(same_init({"-i", "-s", "2", "-d", m_db}));
    EXPECT_TRUE(same_init({"-i", "-q", "--foreign-keys", m_db}));
    EXPECT_TRUE(same({"-n", "-S", "-t", "20", "-c", "2", "-d", m_db}));
}

TEST_P(AsReferencePgbench, PerScriptAndPerCommandReport) {
    ASSERT_TRUE(same_init({"-i", m_db}));
    // a script of weight 0 never runs: 18 and 19 print its count and no failure lines for it
    const fs::path idle = m_dir / "idle.sql";
    std::ofstream(idle) << "select 1;\n";
    EXPECT_TRUE(same({"-n", "-t", "30", "-c", "2", "-r", "-S", "-b", "simple-update@2", "-f",
                      idle.string() + "@0"}));
    EXPECT_TRUE(same({"-n", "-t", "30", "-r", "--max-tries=2", "--failures-detailed", "-S", "-N"}));
    // -r lines: one space between the failures column and the command
    const auto lab = run(true, {"-n", "-t", "5", "-r", "-S"});
    EXPECT_TRUE(std::regex_search(lab.out, std::regex(R"(\n +[0-9.]+ +0 SELECT abalance)")))
        << lab.out;
}

TEST_P(AsReferencePgbench, UnloggedPartitionedInitialisation) {
    // 18 and 19 create the four tables logged when accounts is partitioned; the partitions
    // unlogged.
    const char* persistence =
        "select string_agg(relname || ':' || relpersistence::text, ',' order by relname) from "
        "pg_class where relname like 'pgbench_%' and relkind in ('r', 'p')";
    std::string catalog[2];
    for (const bool pglab : {false, true}) {
        drop_tables();
        const auto r = run(pglab, {"-i", "--unlogged-tables", "--partitions=2", m_db});
        ASSERT_EQ(r.exit_code, 0) << support::describe(r);
        catalog[pglab ? 1 : 0] = support::run_sql(persistence, m_db);
    }
    EXPECT_EQ(catalog[1], catalog[0]);
    EXPECT_NE(catalog[1].find("pgbench_accounts_1:u"), std::string::npos) << catalog[1];
    EXPECT_NE(catalog[1].find("pgbench_branches:p"), std::string::npos) << catalog[1];
}

TEST_P(AsReferencePgbench, ContinueOnErrorCountsOtherFailuresAsTheReleaseDoes) {
    if (m_major < 19) {
        // New in 19: before it, the option is unknown, in the release's own words.
        expect_same_through_link({"--continue-on-error", "-t", "1"});
        return;
    }
    // Every transaction hits a unique violation: 19 rolls it back, counts an other failure and
    // goes on; none is processed. -r and --failures-detailed show the counts per command.
    support::run_sql("drop table if exists coe_keys; create table coe_keys (k int primary key); "
                     "insert into coe_keys values (1)",
                     m_db);
    const fs::path dup = m_dir / "dup.sql";
    std::ofstream(dup) << "insert into coe_keys values (1);\n";
    EXPECT_TRUE(same({"-n", "-t", "10", "-c", "2", "--continue-on-error", "--failures-detailed",
                      "-r", "-f", dup.string()}));
    // About half of them fail (a script of its own each, chosen by the seeded generator, which
    // pglab draws as pgbench does), under --verbose-errors the errors too.
    const fs::path ok = m_dir / "ok.sql";
    std::ofstream(ok) << "select 1;\n";
    EXPECT_TRUE(same({"-n", "-t", "10", "-c", "1", "--random-seed=5", "--continue-on-error",
                      "--failures-detailed", "--verbose-errors", "-f", dup.string() + "@1", "-f",
                      ok.string() + "@1"}));
}

} // namespace
