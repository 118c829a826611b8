// test_server(): a lazily created, process-wide throwaway cluster.
#include "support/test_server.hpp"

#include "support/shared_server.hpp"
#include "util/log.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <optional>

namespace support {

namespace server = pglab::lab::server;

server::ClusterOptions cluster_options() {
    server::ClusterOptions o;
    if (const char* bin = std::getenv("PGLAB_TEST_PG_BIN"); bin != nullptr && *bin != '\0') {
        o.bin_dir = bin;
    } else {
        o.major = k_reference_major;
    }
    o.settings = {{"fsync", "off"}};
    o.initdb_cache_dir = PGLAB_TEST_INITDB_CACHE;
    return o;
}

server::ThrowawayCluster& test_server() {
    if (shared_server() != nullptr) {
        // The case was set to share a server (tests/case-properties.cmake); a server of its own
        // beside that one would be one the helpers below do not talk to.
        std::fprintf(stderr,
                     "this case shares the server %s (tests/case-properties.cmake): it "
                     "must use server_env() and run_sql(), not a server of its own\n",
                     std::getenv("PGLAB_TEST_SHARED_SERVER"));
        std::exit(1);
    }
    // A function-local static: destroyed (server stopped, directory removed) when the test
    // binary returns from main; the cleanup registry covers signals and crashes.
    static server::ThrowawayCluster cluster = [] {
        auto c = server::ThrowawayCluster::create(cluster_options());
        if (!c) {
            pglab::log::print(c.error());
            std::fprintf(stderr, "test server could not start: no test can run\n");
            std::exit(1);
        }
        return std::move(*c);
    }();
    return cluster;
}

EnvOverrides server_env(const std::string& dbname) {
    if (const SharedServer* shared = shared_server()) {
        return shared->client_env(dbname);
    }
    return test_server().client_env(dbname);
}

std::vector<std::string> server_args() {
    std::vector<std::string> args;
    for (const auto& [name, value] : server_env()) {
        const char* option = name == "PGHOST"   ? "-h"
                             : name == "PGPORT" ? "-p"
                             : name == "PGUSER" ? "-U"
                                                : nullptr;
        if (option != nullptr) {
            args.insert(args.end(), {option, value});
        }
    }
    return args;
}

std::string run_sql(const std::string& sql, const std::string& dbname) {
    const SharedServer* shared = shared_server();
    auto r = shared != nullptr ? shared->run_sql(sql, dbname) : test_server().psql(sql, dbname);
    if (!r) {
        ADD_FAILURE() << "SQL failed: " << sql << "\n"
                      << r.error().message << "\n"
                      << r.error().detail;
        return {};
    }
    return *r;
}

namespace {

/// Drops the process's database from the shared server at exit (a case that crashed leaves it,
/// and the server's removal takes it).
struct DropAtExit {
    std::string dbname;

    ~DropAtExit() {
        if (const SharedServer* shared = shared_server(); shared != nullptr && !dbname.empty()) {
            (void)shared->run_sql("drop database if exists " + dbname + " with (force)",
                                  "postgres");
        }
    }
};

std::string make_pgbench_database() {
    if (const SharedServer* shared = shared_server()) {
        static DropAtExit drop;
        const std::string name = fmt::format("pglab_case_{}", ::getpid());
        run_sql(fmt::format("create database {} template {}", name, shared->template_database));
        drop.dbname = name;
        return name;
    }
    const std::string name = "pglab_pgbench";
    run_sql("create database " + name);
    const CommandResult init = init_pgbench_tables(server_env(name));
    EXPECT_EQ(init.exit_code, 0) << describe(init);
    return name;
}

} // namespace

CommandResult init_pgbench_tables(const EnvOverrides& env) {
    return run_command({pgbench_binary(), "-i", "-q", "-s", "1"}, env);
}

const std::string& pgbench_database() {
    static const std::string name = make_pgbench_database();
    return name;
}

bool wait_for_sql(const server::ThrowawayCluster& cluster, const std::string& condition,
                  std::chrono::milliseconds timeout, const std::string& dbname) {
    return wait_until(
        [&] {
            const auto r = cluster.psql("SELECT (" + condition + ")::boolean", dbname);
            return r && r->rfind("t", 0) == 0;
        },
        timeout);
}

std::string bench_sessions_active(int n) {
    return fmt::format("SELECT count(*) >= {} FROM pg_stat_activity WHERE application_name = "
                       "'pgbench' AND query <> ''",
                       n);
}

pglab::pg::Connection connect(const server::ThrowawayCluster& cluster) {
    pglab::pg::ConnParams params;
    params.host = cluster.socket_dir().string();
    params.port = std::to_string(cluster.port());
    params.user = cluster.user();
    params.dbname = "postgres";
    auto conn = pglab::pg::Connection::connect(params);
    EXPECT_TRUE(conn) << (conn ? "" : conn.error().message);
    return conn ? std::move(*conn) : pglab::pg::Connection();
}

} // namespace support
