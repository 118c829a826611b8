#include "bench/setup.hpp"

#include "util/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace pglab::bench {

namespace {

std::string trim(std::string s) {
    while (!s.empty() && s.back() == '\n') {
        s.pop_back();
    }
    return s;
}

std::string init_hint(pg::Connection& conn) {
    return fmt::format("Perhaps you need to do initialization (\"pgbench -i\") in database \"{}\".",
                       conn.dbname());
}

void try_execute(pg::Connection& conn, std::string_view sql) {
    auto st = conn.exec_command(sql);
    if (!st) {
        log::error("{}", trim(st.error().message));
        log::detail("(ignoring this error and continuing anyway)");
    }
}

} // namespace

void print_banner(pg::Connection& conn, RunResult& result, const RunConfig& config) {
    result.server_version = conn.parameter_status("server_version");
    result.server_version_num = conn.server_version();
    result.client_version = PGLAB_VERSION;
    if (config.quiet) {
        return;
    }
    // pgbench's banner, byte for byte (harnesses match "^pgbench \("): pglab speaks as the
    // pgbench release selected.
    const std::string release(config.pgbench->release);
    if (result.server_version_num == config.pgbench->version_num) {
        std::printf("pgbench (%s)\n", release.c_str());
    } else {
        std::printf("pgbench (%s, server %s)\n", release.c_str(), result.server_version.c_str());
    }
    std::fflush(stdout);
}

Status discover_tables(pg::Connection& conn, const RunConfig& config, RunResult& result) {
    auto count = conn.exec("select count(*) from pgbench_branches");
    if (!count) {
        return make_error(Error(fmt::format("could not count number of branches: {}",
                                            trim(count.error().message)))
                              .with_hint(init_hint(conn)));
    }
    const char* text = count->value(0, 0);
    const int scale = std::atoi(text);
    if (scale <= 0) {
        return make_error(fmt::format("invalid count(*) from pgbench_branches: \"{}\"", text));
    }
    if (config.scale_given) {
        log::warning("scale option ignored, using count from pgbench_branches table ({})", scale);
    }
    result.scale = scale;

    // The first pgbench_accounts on the search path, and how it is partitioned.
    auto info = conn.exec(
        "select o.n, p.partstrat, pg_catalog.count(i.inhparent) "
        "from pg_catalog.unnest(pg_catalog.current_schemas(true)) with ordinality as o(n, pos) "
        "join pg_catalog.pg_namespace as n on (n.nspname = o.n) "
        "join pg_catalog.pg_class as c on (c.relnamespace = n.oid) "
        "left join pg_catalog.pg_partitioned_table as p on (p.partrelid = c.oid) "
        "left join pg_catalog.pg_inherits as i on (c.oid = i.inhparent) "
        "where c.relname = 'pgbench_accounts' and o.n is not null "
        "group by 1, 2, o.pos order by o.pos asc limit 1");
    if (!info) {
        return make_error(
            fmt::format("could not get partitioning information: {}", trim(info.error().message)));
    }
    if (info->ntuples() == 0) {
        return make_error(Error(config.pgbench->quoted_guc_names
                                    ? "no pgbench_accounts table found in \"search_path\""
                                    : "no pgbench_accounts table found in search_path")
                              .with_hint(init_hint(conn)));
    }
    if (!info->is_null(0, 1)) {
        const std::string_view strat = info->value(0, 1);
        if (strat == "r") {
            result.partition_method = "range";
        } else if (strat == "h") {
            result.partition_method = "hash";
        } else {
            return make_error(fmt::format("unexpected partition method: \"{}\"", strat));
        }
        result.partitions = std::atoi(info->value(0, 2));
    }
    return {};
}

void read_settings(pg::Connection& conn, RunResult& result) {
    auto rows = conn.exec(
        "select name, current_setting(name) from pg_catalog.pg_settings where name in ("
        "'shared_buffers', 'effective_cache_size', 'work_mem', 'maintenance_work_mem', "
        "'max_connections', 'synchronous_commit', 'fsync', 'full_page_writes', 'wal_level', "
        "'wal_buffers', 'wal_compression', 'commit_delay', 'max_wal_size', 'min_wal_size', "
        "'checkpoint_timeout', 'checkpoint_completion_target', 'huge_pages', 'jit', "
        "'default_transaction_isolation', 'random_page_cost', 'effective_io_concurrency', "
        "'max_worker_processes', 'max_parallel_workers_per_gather', 'autovacuum') order by name");
    if (!rows) {
        log::debug("could not read server settings: {}", trim(rows.error().message));
        return;
    }
    for (int i = 0; i < rows->ntuples(); ++i) {
        result.settings.emplace_back(rows->value(i, 0), rows->value(i, 1));
    }
}

void vacuum_before_run(pg::Connection& conn, const RunConfig& config) {
    if (config.no_vacuum) {
        return;
    }
    if (config.quiet) {
        try_execute(conn, "vacuum pgbench_branches");
        try_execute(conn, "vacuum pgbench_tellers");
        try_execute(conn, "truncate pgbench_history");
        if (config.vacuum_accounts) {
            try_execute(conn, "vacuum analyze pgbench_accounts");
        }
        return;
    }
    std::fputs("starting vacuum...", stderr);
    try_execute(conn, "vacuum pgbench_branches");
    try_execute(conn, "vacuum pgbench_tellers");
    try_execute(conn, "truncate pgbench_history");
    std::fputs("end.\n", stderr);
    if (config.vacuum_accounts) {
        std::fputs("starting vacuum pgbench_accounts...", stderr);
        try_execute(conn, "vacuum analyze pgbench_accounts");
        std::fputs("end.\n", stderr);
    }
}

} // namespace pglab::bench
