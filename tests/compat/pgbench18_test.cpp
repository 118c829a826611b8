// pglab as pgbench 18 (PGLAB_PGBENCH_VERSION=18) against the reference pgbench 18, built from
// Debian's source package by scripts/build-pgbench-reference into pglab's cache: the same
// command lines, the same exit codes, stdout keys and stderr (numbers masked), byte for byte
// where nothing varies (--help, option errors). The server is the test server (15).
#include "lab/server/installation.hpp"
#include "support/compat.hpp"
#include "support/run_command.hpp"
#include "support/test_server.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using support::CommandResult;

constexpr const char* k_pgbench18_db = "as_pgbench18";

/// The reference pgbench 18: $PGLAB_TEST_PGBENCH18, else the one of pglab's cache.
fs::path pgbench18() {
    if (const char* given = std::getenv("PGLAB_TEST_PGBENCH18"); given != nullptr && *given) {
        return given;
    }
    return pglab::lab::server::release_cache_dir().parent_path() / "pgbench-reference"
           / "pgbench-18" / "bin" / "pgbench";
}

/// The banner names the release each program speaks as; the reference adds Debian's package
/// version ("18.6 (Debian 18.6-3)"), pglab does not ("18.6").
std::string without_package_version(std::string out) {
    static const std::regex debian(R"(^pgbench \(18\.[0-9]+( \(Debian [^)]*\))?)");
    return std::regex_replace(out, debian, "pgbench (18.x",
                              std::regex_constants::format_first_only);
}

class AsPgbench18 : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!fs::exists(pgbench18())) {
            return;
        }
        support::run_sql(std::string("drop database if exists ") + k_pgbench18_db);
        support::run_sql(std::string("create database ") + k_pgbench18_db);
    }

    void SetUp() override {
        if (!fs::exists(pgbench18())) {
            GTEST_SKIP() << "no pgbench 18 at " << pgbench18()
                         << ": scripts/build-pgbench-reference builds it (make test does)";
        }
        char tmpl[] = "/tmp/pglab-pgbench18-XXXXXX";
        ASSERT_NE(::mkdtemp(tmpl), nullptr);
        m_dir = tmpl;
    }

    void TearDown() override {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    /// `args` through pgbench 18 (`pglab` false) or through pglab as pgbench 18.
    CommandResult run(bool pglab, const std::vector<std::string>& args,
                      const std::string& db = k_pgbench18_db) const {
        std::vector<std::string> argv;
        if (pglab) {
            argv = {support::pglab_binary(), "bench"};
        } else {
            argv = {pgbench18().string()};
        }
        argv.insert(argv.end(), args.begin(), args.end());
        support::EnvOverrides env = support::server_env(db);
        env.emplace_back("PGLAB_PGBENCH_VERSION", "18");
        CommandResult r = support::run_command(argv, env);
        r.out = without_package_version(r.out);
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

    static void drop_tables() {
        support::run_sql("drop table if exists pgbench_accounts, pgbench_branches, "
                         "pgbench_history, pgbench_tellers cascade",
                         k_pgbench18_db);
    }

    fs::path m_dir;
};

TEST_F(AsPgbench18, HelpAndOptionErrorsThroughAPgbenchLinkAreByteForByte) {
    const fs::path link = m_dir / "pgbench";
    fs::create_symlink(support::pglab_binary(), link);
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
        std::vector<std::string> pg = {pgbench18().string()};
        std::vector<std::string> lab = {link.string()};
        pg.insert(pg.end(), args.begin(), args.end());
        lab.insert(lab.end(), args.begin(), args.end());
        support::EnvOverrides env = {{"PGLAB_PGBENCH_VERSION", "18"}};
        const auto a = support::run_command(pg, env);
        const auto b = support::run_command(lab, env);
        EXPECT_EQ(b.exit_code, a.exit_code) << support::describe(b);
        EXPECT_EQ(b.out, a.out);
        std::string expected_err = a.err; // getopt names argv[0], a path of its own for each
        for (size_t at = expected_err.find(pgbench18().string()); at != std::string::npos;
             at = expected_err.find(pgbench18().string(), at)) {
            expected_err.replace(at, pgbench18().string().size(), link.string());
        }
        EXPECT_EQ(b.err, expected_err);
    }
}

TEST_F(AsPgbench18, InitialisationAndDashDNamesTheDatabase) {
    // 18's client-side generation: a COPY per table, each progress line naming its table.
    EXPECT_TRUE(same_init({"-i", "-s", "2", "-d", k_pgbench18_db}));
    EXPECT_TRUE(same_init({"-i", "-q", "--foreign-keys", k_pgbench18_db}));
    EXPECT_TRUE(same({"-n", "-S", "-t", "20", "-c", "2", "-d", k_pgbench18_db}));
}

TEST_F(AsPgbench18, PerScriptAndPerCommandReport) {
    ASSERT_TRUE(same_init({"-i", k_pgbench18_db}));
    // a script of weight 0 never runs: 18 prints its count and no failure lines for it
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

TEST_F(AsPgbench18, UnloggedPartitionedInitialisation) {
    // 18 creates the four tables logged when accounts is partitioned; the partitions unlogged.
    const char* persistence =
        "select string_agg(relname || ':' || relpersistence::text, ',' order by relname) from "
        "pg_class where relname like 'pgbench_%' and relkind in ('r', 'p')";
    std::string catalog[2];
    for (const bool pglab : {false, true}) {
        drop_tables();
        const auto r = run(pglab, {"-i", "--unlogged-tables", "--partitions=2", k_pgbench18_db});
        ASSERT_EQ(r.exit_code, 0) << support::describe(r);
        catalog[pglab ? 1 : 0] = support::run_sql(persistence, k_pgbench18_db);
    }
    EXPECT_EQ(catalog[1], catalog[0]);
    EXPECT_NE(catalog[1].find("pgbench_accounts_1:u"), std::string::npos) << catalog[1];
    EXPECT_NE(catalog[1].find("pgbench_branches:p"), std::string::npos) << catalog[1];
}

} // namespace
