// `pglab bench -i` against `the reference pgbench (15) -i` on the same server: exit code, stdout,
// the sequence of stderr lines (times masked) and the tables, catalog entries and data left behind.
#include "pg/connection.hpp"
#include "support/run_command.hpp"
#include "support/test_server.hpp"
#include "util/subprocess.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace pglab {
namespace {

constexpr const char* k_tablespace = "regress_pgbench_tap_1_ts";

/// Catalog and data facts that pgbench -i determines; one query per aspect.
const std::vector<std::string> k_state_queries = {
    // tables, partitions, indexes: kind, persistence, fillfactor, bounds, tablespace
    "select c.relname, c.relkind, c.relpersistence, c.reloptions, "
    "pg_get_expr(c.relpartbound, c.oid), t.spcname from pg_class c "
    "join pg_namespace n on n.oid = c.relnamespace left join pg_tablespace t "
    "on t.oid = c.reltablespace where n.nspname = 'public' order by 1",
    // columns and types
    "select c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull "
    "from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on "
    "n.oid = c.relnamespace where n.nspname = 'public' and a.attnum > 0 and not a.attisdropped "
    "order by 1, 2",
    "select table_name, column_name, data_type, character_maximum_length, is_nullable "
    "from information_schema.columns where table_schema = 'public' order by 1, ordinal_position",
    // constraints and indexes
    "select conrelid::regclass, conname, contype, pg_get_constraintdef(oid) from pg_constraint "
    "where connamespace = 'public'::regnamespace order by 1, 2",
    "select indexrelid::regclass, pg_get_indexdef(indexrelid) from pg_index i join pg_class c "
    "on c.oid = i.indrelid where c.relnamespace = 'public'::regnamespace order by 1",
    // data
    "select relname, (xpath('/row/c/text()', query_to_xml('select count(*) as c from ' || "
    "relname, false, true, '')))[1]::text from pg_class where relnamespace = "
    "'public'::regnamespace and relkind in ('r', 'p') order by 1",
    "select (select sum(abalance) from pgbench_accounts), (select sum(bbalance) from "
    "pgbench_branches), (select sum(tbalance) from pgbench_tellers), (select count(*) from "
    "pgbench_accounts where filler = ''), (select count(*) from pgbench_tellers where filler is "
    "null), (select count(*) from pgbench_accounts where bid <> (aid - 1) / 100000 + 1), "
    "(select count(*) from pgbench_tellers where bid <> (tid - 1) / 10 + 1)",
};

pg::ConnParams server_params() {
    const auto& server = support::test_server();
    pg::ConnParams p;
    p.host = server.socket_dir().string();
    p.port = std::to_string(server.port());
    p.user = server.user();
    p.dbname = "postgres";
    return p;
}

/// Runs `sql` on a fresh connection; all rows as text, "ERROR" lines when it fails.
std::string query_text(const std::string& sql) {
    pg::ConnParams p = server_params();
    auto conn = pg::Connection::connect(p);
    if (!conn) {
        return "connect failed: " + conn.error().message;
    }
    auto res = conn->exec(sql);
    if (!res) {
        return "ERROR " + res.error().message + "\n";
    }
    std::string out;
    for (int r = 0; r < res->ntuples(); ++r) {
        for (int c = 0; c < res->nfields(); ++c) {
            out += res->is_null(r, c) ? "NULL" : res->value(r, c);
            out += '|';
        }
        out += '\n';
    }
    return out;
}

std::string database_state() {
    std::string state;
    for (const auto& q : k_state_queries) {
        state += query_text(q) + "--\n";
    }
    return state;
}

void drop_tables() {
    query_text("set client_min_messages = warning; drop table if exists pgbench_accounts, "
               "pgbench_branches, pgbench_history, "
               "pgbench_tellers cascade");
}

/// stderr lines with the program name and decimal numbers (times) masked.
std::vector<std::string> masked_lines(const std::string& err) {
    static const std::regex prog(R"(^(pgbench|pglab): )");
    static const std::regex decimal(R"(\d+\.\d+)");
    std::vector<std::string> out;
    std::istringstream in(err);
    for (std::string line; std::getline(in, line, '\n');) {
        line = std::regex_replace(line, prog, "PROG: ");
        out.push_back(std::regex_replace(line, decimal, "N.NN"));
    }
    return out;
}

struct Outcome {
    int exit_code = -1;
    std::string out;
    std::vector<std::string> err_lines;
    std::string raw_err;
    std::string state;
};

Outcome run(std::vector<std::string> argv, bool with_server_env = true) {
    drop_tables();
    util::SpawnOptions o;
    o.argv = std::move(argv);
    if (with_server_env) {
        for (const auto& kv : support::test_server().client_env()) {
            o.env.push_back(kv);
        }
    }
    o.timeout = std::chrono::minutes(5);
    Outcome outcome;
    auto r = util::run_process(o);
    if (!r) {
        ADD_FAILURE() << r.error().message;
        return outcome;
    }
    outcome.exit_code = r->status.code;
    outcome.out = r->out;
    outcome.raw_err = r->err;
    outcome.err_lines = masked_lines(r->err);
    outcome.state = database_state();
    return outcome;
}

/// Runs pgbench and pglab with `-i <args>` and compares everything observable.
void expect_same(const std::vector<std::string>& args, bool with_server_env = true) {
    std::vector<std::string> pgbench_argv = {support::pgbench_binary(), "-i"};
    std::vector<std::string> pglab_argv = {PGLAB_BINARY, "bench", "-i"};
    pgbench_argv.insert(pgbench_argv.end(), args.begin(), args.end());
    pglab_argv.insert(pglab_argv.end(), args.begin(), args.end());

    const Outcome expected = run(pgbench_argv, with_server_env);
    const Outcome actual = run(pglab_argv, with_server_env);
    EXPECT_EQ(actual.exit_code, expected.exit_code) << actual.raw_err;
    EXPECT_EQ(expected.out, "");
    EXPECT_EQ(actual.out, "");
    EXPECT_EQ(actual.err_lines, expected.err_lines) << "pgbench:\n"
                                                    << expected.raw_err << "pglab:\n"
                                                    << actual.raw_err;
    EXPECT_EQ(actual.state, expected.state);
}

class InitCompatTest : public testing::Test {
protected:
    static void TearDownTestSuite() {
        drop_tables();
        query_text(std::string("set client_min_messages = warning; drop tablespace if exists ")
                   + k_tablespace);
    }
};

TEST_F(InitCompatTest, Default) {
    expect_same({});
}

TEST_F(InitCompatTest, ScaleAndFillfactor) {
    expect_same({"-s", "2", "-F", "90"});
}

TEST_F(InitCompatTest, AllOptionsHashPartitions) {
    expect_same({"--init-steps=dtpvg", "--unlogged-tables", "--fillfactor=98", "--foreign-keys",
                 "--quiet", "--partitions=2", "--partition-method=hash"});
}

TEST_F(InitCompatTest, ServerSideRangePartitions) {
    expect_same({"-I", "dtGvp", "--partitions=3"});
}

TEST_F(InitCompatTest, TapInitSteps) {
    expect_same({"--init-steps=dtpvGvv", "--no-vacuum", "--foreign-keys", "--unlogged-tables",
                 "--partitions=3"});
}

TEST_F(InitCompatTest, NoVacuum) {
    expect_same({"-n"});
}

TEST_F(InitCompatTest, FailingStep) {
    expect_same({"-I", "p"});
}

TEST_F(InitCompatTest, Tablespaces) {
    // the tablespace directory must belong to the server's OS user: take the data dir's owner
    const auto& server = support::test_server();

    struct stat st {};

    ASSERT_EQ(::stat(server.data_dir().c_str(), &st), 0);
    const std::filesystem::path dir = server.base_dir() / "init_compat_ts";
    std::filesystem::create_directories(dir);
    if (::chown(dir.c_str(), st.st_uid, st.st_gid) != 0) {
        GTEST_SKIP() << "cannot give " << dir << " to the server's user";
    }
    query_text(std::string("set client_min_messages = warning; drop tablespace if exists ")
               + k_tablespace);
    ASSERT_EQ(query_text(std::string("create tablespace ") + k_tablespace + " location '"
                         + dir.string() + "'"),
              "");
    expect_same({"--tablespace=" + std::string(k_tablespace),
                 "--index-tablespace=" + std::string(k_tablespace), "--partitions=2"});
}

TEST_F(InitCompatTest, InvalidConnection) {
    expect_same({"-h", "/nonexistent-pglab-socket-dir"}, false);
}

} // namespace
} // namespace pglab
