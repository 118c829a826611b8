// init::initialize and pg::Connection against a throwaway server: the data and catalog state
// pgbench -i leaves, the stderr messages, and failures (bad connection, failing statement).
#include "init/initialize.hpp"
#include "pg/connection.hpp"
#include "support/test_server.hpp"

#include <gtest/gtest.h>

#include <poll.h>

#include <algorithm>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace pglab::init {
namespace {

pg::ConnParams server_params() {
    const auto& server = support::test_server();
    pg::ConnParams p;
    p.host = server.socket_dir().string();
    p.port = std::to_string(server.port());
    p.user = server.user();
    p.dbname = "postgres";
    return p;
}

pg::Connection connect_or_fail() {
    pg::ConnParams p = server_params();
    auto conn = pg::Connection::connect(p);
    if (!conn) {
        ADD_FAILURE() << conn.error().message;
        return {};
    }
    return std::move(*conn);
}

/// The single value of `sql`, "" when it fails (the failure is reported).
std::string query_value(pg::Connection& conn, const std::string& sql) {
    auto res = conn.exec(sql);
    if (!res) {
        ADD_FAILURE() << sql << ": " << res.error().message;
        return {};
    }
    if (res->ntuples() != 1 || res->nfields() < 1) {
        ADD_FAILURE() << sql << ": not one row";
        return {};
    }
    return res->is_null(0, 0) ? "NULL" : res->value(0, 0);
}

struct InitRun {
    Status status;
    std::vector<std::string> lines; ///< stderr split at '\n'
};

InitRun run_init(InitOptions options) {
    options.conn = server_params();
    testing::internal::CaptureStderr();
    Status status = initialize(std::move(options));
    const std::string err = testing::internal::GetCapturedStderr();
    InitRun run{std::move(status), {}};
    std::istringstream in(err);
    for (std::string line; std::getline(in, line);) {
        run.lines.push_back(line);
    }
    return run;
}

/// Lines that are neither server NOTICEs nor progress lines.
std::vector<std::string> banners(const std::vector<std::string>& lines) {
    std::vector<std::string> out;
    for (const auto& l : lines) {
        if (l.rfind("NOTICE:", 0) != 0 && l.find(" tuples (") == std::string::npos) {
            out.push_back(l);
        }
    }
    return out;
}

void drop_all() {
    pg::Connection conn = connect_or_fail();
    ASSERT_TRUE(conn.exec_command("set client_min_messages = warning; drop table if exists "
                                  "pgbench_accounts, pgbench_branches, "
                                  "pgbench_history, pgbench_tellers cascade"));
}

class InitTest : public testing::Test {
protected:
    void SetUp() override { drop_all(); }
};

TEST_F(InitTest, DefaultStepsLoadScaleOne) {
    const InitRun run = run_init(InitOptions{});
    ASSERT_TRUE(run.status) << run.status.error().message;
    const auto b = banners(run.lines);
    ASSERT_EQ(b.size(), 6U);
    EXPECT_EQ(b[0], "dropping old tables...");
    EXPECT_EQ(b[1], "creating tables...");
    EXPECT_EQ(b[2], "generating data (client-side)...");
    EXPECT_EQ(b[3], "vacuuming...");
    EXPECT_EQ(b[4], "creating primary keys...");
    EXPECT_TRUE(std::regex_match(
        b[5],
        std::regex(R"(done in \d+\.\d\d s \(drop tables \d+\.\d\d s, create tables \d+\.\d\d )"
                   R"(s, client-side generate \d+\.\d\d s, vacuum \d+\.\d\d s, primary keys )"
                   R"(\d+\.\d\d s\)\.)")))
        << b[5];
    // pgbench 18 (the default) names the table in the progress line of its COPY
    const std::regex progress(R"(100000 of 100000 tuples \(100%\) of pgbench_accounts done )"
                              R"(\(elapsed \d+\.\d\d s, remaining 0\.00 s\))");
    EXPECT_EQ(std::count_if(run.lines.begin(), run.lines.end(),
                            [&](const std::string& l) { return std::regex_match(l, progress); }),
              1);

    pg::Connection conn = connect_or_fail();
    EXPECT_EQ(query_value(conn, "select count(*) from pgbench_accounts"), "100000");
    EXPECT_EQ(query_value(conn, "select count(*) from pgbench_tellers"), "10");
    EXPECT_EQ(query_value(conn, "select count(*) from pgbench_branches"), "1");
    EXPECT_EQ(query_value(conn, "select count(*) from pgbench_history"), "0");
    EXPECT_EQ(query_value(conn, "select sum(abalance) from pgbench_accounts"), "0");
    EXPECT_EQ(query_value(conn, "select count(*) from pgbench_accounts where filler = ''"),
              "100000");
    EXPECT_EQ(query_value(conn, "select count(*) from pgbench_tellers where filler is null"), "10");
    EXPECT_EQ(query_value(conn, "select reloptions::text from pg_class "
                                "where relname = 'pgbench_accounts'"),
              "{fillfactor=100}");
    EXPECT_EQ(query_value(conn, "select count(*) from pg_constraint where contype = 'p' "
                                "and conrelid::regclass::text like 'pgbench_%'"),
              "3");
}

TEST_F(InitTest, ServerSideRangePartitions) {
    InitOptions o;
    o.steps = "dtGvp";
    o.scale = 2;
    o.partitions = 3;
    const InitRun run = run_init(o);
    ASSERT_TRUE(run.status) << run.status.error().message;
    const auto b = banners(run.lines);
    ASSERT_GE(b.size(), 4U);
    EXPECT_EQ(b[2], "creating 3 partitions...");
    EXPECT_EQ(b[3], "generating data (server-side)...");

    pg::Connection conn = connect_or_fail();
    EXPECT_EQ(query_value(conn, "select count(*) from pgbench_accounts"), "200000");
    EXPECT_EQ(query_value(conn, "select count(*) from pgbench_accounts where bid = 2"), "100000");
    EXPECT_EQ(query_value(conn, "select string_agg(pg_get_expr(relpartbound, oid), ' | ' "
                                "order by relname) from pg_class where relispartition "
                                "and relkind = 'r' and relname like 'pgbench_accounts_%'"),
              "FOR VALUES FROM (MINVALUE) TO (66668) | FOR VALUES FROM (66668) TO (133335) | "
              "FOR VALUES FROM (133335) TO (MAXVALUE)");
    EXPECT_EQ(query_value(conn, "select count(*) from pgbench_accounts_2"), "66667");
}

TEST_F(InitTest, HashPartitionsUnloggedFillfactorForeignKeysQuiet) {
    InitOptions o;
    o.pgbench = compat::find_pgbench_profile(17);
    o.steps = "dtpvgf";
    o.unlogged = true;
    o.fillfactor = 98;
    o.quiet = true;
    o.partitions = 2;
    o.partition_method = PartitionMethod::hash;
    const InitRun run = run_init(o);
    ASSERT_TRUE(run.status) << run.status.error().message;
    const auto b = banners(run.lines);
    ASSERT_EQ(b.size(), 8U);
    EXPECT_EQ(b[2], "creating 2 partitions...");
    EXPECT_EQ(b[3], "creating primary keys...");
    EXPECT_EQ(b[4], "vacuuming...");
    EXPECT_EQ(b[5], "generating data (client-side)...");
    EXPECT_EQ(b[6], "creating foreign keys...");
    // -q: only the final progress line for a load of well under 5 s
    EXPECT_EQ(run.lines.size() - b.size(), 4U + 1U); // 4 NOTICEs + 1 progress line

    pg::Connection conn = connect_or_fail();
    EXPECT_EQ(query_value(conn, "select count(*) from pgbench_accounts"), "100000");
    EXPECT_EQ(query_value(conn,
                          "select string_agg(relname || ':' || relpersistence::text || ':' || "
                          "coalesce(reloptions::text, '-'), ',' order by relname) from "
                          "pg_class where relname in ('pgbench_accounts_1', "
                          "'pgbench_tellers', 'pgbench_history')"),
              "pgbench_accounts_1:u:{fillfactor=98},pgbench_history:u:-,"
              "pgbench_tellers:u:{fillfactor=98}");
    EXPECT_EQ(query_value(conn, "select pg_get_expr(relpartbound, oid) from pg_class "
                                "where relname = 'pgbench_accounts_2'"),
              "FOR VALUES WITH (modulus 2, remainder 1)");
    EXPECT_EQ(
        query_value(
            conn,
            "select string_agg(conname, ',' order by conname) from "
            "pg_constraint where contype = 'f' and conparentid = 0 and conrelid::regclass::text "
            "like 'pgbench_%'"),
        "pgbench_accounts_bid_fkey,pgbench_history_aid_fkey,pgbench_history_bid_fkey,"
        "pgbench_history_tid_fkey,pgbench_tellers_bid_fkey");
}

TEST_F(InitTest, UnloggedPartitionedAs18LeavesTheFourTablesLogged) {
    InitOptions o;
    o.pgbench = compat::find_pgbench_profile(18);
    o.unlogged = true;
    o.partitions = 2;
    o.partition_method = PartitionMethod::range;
    const InitRun run = run_init(o);
    ASSERT_TRUE(run.status) << run.status.error().message;
    pg::Connection conn = connect_or_fail();
    EXPECT_EQ(query_value(conn, "select string_agg(relname || ':' || relpersistence::text, ',' "
                                "order by relname) from pg_class where relname in "
                                "('pgbench_accounts', 'pgbench_accounts_1', 'pgbench_branches', "
                                "'pgbench_history', 'pgbench_tellers')"),
              "pgbench_accounts:p,pgbench_accounts_1:u,pgbench_branches:p,pgbench_history:p,"
              "pgbench_tellers:p");
}

TEST_F(InitTest, ClientSideGenerationAs17CopiesEveryTableWithNullFillers) {
    for (const int major : {15, 17}) {
        SCOPED_TRACE(major);
        drop_all();
        InitOptions o;
        o.pgbench = compat::find_pgbench_profile(major);
        o.scale = 2;
        const InitRun run = run_init(o);
        ASSERT_TRUE(run.status) << run.status.error().message;
        pg::Connection conn = connect_or_fail();
        // The same data either way (INSERTs up to 16, COPY from 17): NULL fillers in branches
        // and tellers, blank-padded ones in accounts.
        EXPECT_EQ(
            query_value(conn, "select count(*) || '/' || count(filler) from pgbench_branches"),
            "2/0");
        EXPECT_EQ(query_value(conn, "select count(*) || '/' || count(filler) || '/' || sum(bid) "
                                    "from pgbench_tellers"),
                  "20/0/30");
        EXPECT_EQ(query_value(conn, "select count(*) from pgbench_accounts where filler = ''"),
                  "200000");
        const std::regex named_progress(R"(^\d+ of \d+ tuples \(\d+%\) of pgbench_accounts done )");
        const bool named = std::any_of(run.lines.begin(), run.lines.end(), [&](const auto& l) {
            return std::regex_search(l, named_progress);
        });
        EXPECT_EQ(named, major == 17);
    }
}

TEST_F(InitTest, BigScaleUsesBigintAccountIds) {
    InitOptions o;
    o.steps = "dt";
    o.scale = 20000;
    ASSERT_TRUE(run_init(o).status);
    pg::Connection conn = connect_or_fail();
    EXPECT_EQ(query_value(conn, "select format_type(atttypid, atttypmod) from pg_attribute where "
                                "attrelid = 'pgbench_accounts'::regclass and attname = 'aid'"),
              "bigint");
    EXPECT_EQ(query_value(conn, "select format_type(atttypid, atttypmod) from pg_attribute where "
                                "attrelid = 'pgbench_history'::regclass and attname = 'aid'"),
              "bigint");
}

TEST_F(InitTest, FailingStatementReportsQuery) {
    InitOptions o;
    o.steps = "p";
    const InitRun run = run_init(o);
    ASSERT_FALSE(run.status);
    EXPECT_EQ(run.status.error().message,
              "query failed: ERROR:  relation \"pgbench_branches\" does not exist");
    EXPECT_EQ(run.status.error().detail,
              "Query was: alter table pgbench_branches add primary key (bid)");
    EXPECT_EQ(run.status.error().exit_code, 1);
}

TEST_F(InitTest, MissingTablespaceIsQuotedInQuery) {
    InitOptions o;
    o.steps = "t";
    o.tablespace = "no\"such";
    const InitRun run = run_init(o);
    ASSERT_FALSE(run.status);
    EXPECT_NE(run.status.error().detail.find(" tablespace \"no\"\"such\""), std::string::npos)
        << run.status.error().detail;
}

TEST_F(InitTest, UnknownStepFailsBeforeConnecting) {
    InitOptions o;
    o.steps = "dx";
    o.conn.host = "/nonexistent-pglab-socket-dir";
    testing::internal::CaptureStderr();
    const Status s = initialize(o);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().message, "unrecognized initialization step \"x\"");
    EXPECT_EQ(s.error().detail, "Allowed step characters are: \"dtgGvpf\".");
}

TEST(InitConnectionTest, BadConnectionReportsLibpqThenInitMessage) {
    InitOptions o;
    o.conn.host = "/nonexistent-pglab-socket-dir";
    testing::internal::CaptureStderr();
    const Status s = initialize(o);
    const std::string err = testing::internal::GetCapturedStderr();
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().message, "could not create connection for initialization");
    EXPECT_NE(err.find("error: connection to server on socket "
                       "\"/nonexistent-pglab-socket-dir/.s.PGSQL."),
              std::string::npos)
        << err;
}

TEST(ConnectionTest, ExecAndErrorClasses) {
    pg::Connection conn = connect_or_fail();
    ASSERT_TRUE(conn.valid());
    EXPECT_GE(conn.server_version(), 100000);
    EXPECT_EQ(conn.dbname(), "postgres");
    EXPECT_EQ(query_value(conn, "select 6 * 7"), "42");

    auto bad = conn.exec("select 1/0");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message, "ERROR:  division by zero");

    ASSERT_TRUE(conn.send_query("do $$ begin raise exception 'x' using errcode = '40001'; end $$"));
    pg::QueryResult r = conn.get_result();
    EXPECT_EQ(r.status(), pg::ResultStatus::fatal_error);
    EXPECT_STREQ(r.sqlstate(), "40001");
    EXPECT_EQ(r.error_class(), pg::ErrorClass::serialization);
    EXPECT_FALSE(conn.get_result());

    ASSERT_TRUE(conn.send_query("do $$ begin raise exception 'x' using errcode = '40P01'; end $$"));
    r = conn.get_result();
    EXPECT_EQ(r.error_class(), pg::ErrorClass::deadlock);
    EXPECT_FALSE(conn.get_result());
}

TEST(ConnectionTest, ConninfoInDbnameIsExpanded) {
    const auto& server = support::test_server();
    pg::ConnParams p;
    p.dbname = "host=" + server.socket_dir().string() + " port=" + std::to_string(server.port())
               + " user=" + server.user() + " dbname=template1";
    auto conn = pg::Connection::connect(p);
    ASSERT_TRUE(conn) << conn.error().message;
    EXPECT_EQ(conn->dbname(), "template1");
    EXPECT_EQ(conn->parameter_status("application_name"), "pgbench");
}

TEST(ConnectionTest, NonBlockingConnect) {
    auto conn = pg::Connection::start_connect(server_params());
    ASSERT_TRUE(conn) << conn.error().message;
    pg::PollStatus st = pg::PollStatus::writing;
    for (int i = 0; i < 1000 && st != pg::PollStatus::ok && st != pg::PollStatus::failed; ++i) {
        pollfd fd{conn->socket(),
                  static_cast<short>(st == pg::PollStatus::reading ? POLLIN : POLLOUT), 0};
        ASSERT_GE(::poll(&fd, 1, 1000), 0);
        st = conn->poll_connect();
    }
    EXPECT_EQ(st, pg::PollStatus::ok) << conn->error_message();
}

TEST(ConnectionTest, CopyInRoundTrip) {
    pg::Connection conn = connect_or_fail();
    ASSERT_TRUE(conn.exec_command("create temp table t(a int, b text)"));
    auto copy = conn.exec("copy t from stdin");
    ASSERT_TRUE(copy);
    EXPECT_EQ(copy->status(), pg::ResultStatus::copy_in);
    ASSERT_TRUE(conn.put_copy_data("1\tx\n2\ty\n"));
    ASSERT_TRUE(conn.put_copy_end());
    EXPECT_EQ(query_value(conn, "select string_agg(a || b, ',' order by a) from t"), "1x,2y");

    copy = conn.exec("copy t from stdin");
    ASSERT_TRUE(copy);
    ASSERT_TRUE(conn.put_copy_data("oops\n"));
    const Status end = conn.put_copy_end();
    ASSERT_FALSE(end);
    EXPECT_NE(end.error().message.find("invalid input syntax for type integer"), std::string::npos)
        << end.error().message;
}

} // namespace
} // namespace pglab::init
