// SQL of pgbench's -i steps (15 to 18): table DDL, partitions, keys, server-side generation.
#include "init/init_sql.hpp"

#include <fmt/format.h>

#include <array>

namespace pglab::init {

namespace {

/// One pgbench table: column lists for 32-bit and 64-bit account ids, fillfactor or not.
struct TableDdl {
    std::string_view table;
    std::string_view small_cols;
    std::string_view big_cols;
    bool declare_fillfactor;
};

/// pgbench's DDLs array, in its creation order (the odd spacing is pgbench's own).
constexpr std::array<TableDdl, 4> k_tables = {{
    {"pgbench_history", "tid int,bid int,aid    int,delta int,mtime timestamp,filler char(22)",
     "tid int,bid int,aid bigint,delta int,mtime timestamp,filler char(22)", false},
    {"pgbench_tellers", "tid int not null,bid int,tbalance int,filler char(84)",
     "tid int not null,bid int,tbalance int,filler char(84)", true},
    {"pgbench_accounts", "aid    int not null,bid int,abalance int,filler char(84)",
     "aid bigint not null,bid int,abalance int,filler char(84)", true},
    {"pgbench_branches", "bid int not null,bbalance int,filler char(88)",
     "bid int not null,bbalance int,filler char(88)", true},
}};

std::string_view unlogged_word(const InitOptions& o) {
    return o.unlogged ? " unlogged" : "";
}

} // namespace

PartitionMethod effective_partition_method(const InitOptions& options) {
    if (options.partitions <= 0) {
        return PartitionMethod::none;
    }
    return options.partition_method == PartitionMethod::none ? PartitionMethod::range
                                                             : options.partition_method;
}

std::vector<std::string> create_table_statements(const InitOptions& options,
                                                 std::string_view tablespace) {
    const PartitionMethod method = effective_partition_method(options);
    const bool big = options.scale >= k_scale_32bit_threshold;
    std::vector<std::string> out;
    // 18 creates the four tables logged when pgbench_accounts is partitioned (a partitioned
    // table cannot be unlogged there); its partitions stay unlogged.
    const bool unlogged = options.unlogged
                          && (method == PartitionMethod::none
                              || options.pgbench->unlogged_main_tables_when_partitioned);
    for (const TableDdl& ddl : k_tables) {
        std::string sql = fmt::format("create{} table {}({})", unlogged ? " unlogged" : "",
                                      ddl.table, big ? ddl.big_cols : ddl.small_cols);
        if (method != PartitionMethod::none && ddl.table == "pgbench_accounts") {
            sql += fmt::format(" partition by {} (aid)",
                               method == PartitionMethod::range ? "range" : "hash");
        } else if (ddl.declare_fillfactor) {
            sql += fmt::format(" with (fillfactor={})", options.fillfactor);
        }
        if (!tablespace.empty()) {
            sql += fmt::format(" tablespace {}", tablespace);
        }
        out.push_back(std::move(sql));
    }
    return out;
}

std::vector<std::string> create_partition_statements(const InitOptions& options) {
    const PartitionMethod method = effective_partition_method(options);
    std::vector<std::string> out;
    if (method == PartitionMethod::none) {
        return out;
    }
    const int n = options.partitions;
    const int64_t part_size = (account_count(options.scale) + n - 1) / n;
    for (int p = 1; p <= n; ++p) {
        std::string sql = fmt::format("create{} table pgbench_accounts_{}\n"
                                      "  partition of pgbench_accounts\n",
                                      unlogged_word(options), p);
        if (method == PartitionMethod::range) {
            const std::string from =
                p == 1 ? std::string("minvalue") : fmt::format("{}", (p - 1) * part_size + 1);
            const std::string to =
                p < n ? fmt::format("{}", p * part_size + 1) : std::string("maxvalue");
            sql += fmt::format("  for values from ({}) to ({})", from, to);
        } else {
            sql += fmt::format("  for values with (modulus {}, remainder {})", n, p - 1);
        }
        sql += fmt::format(" with (fillfactor={})", options.fillfactor);
        out.push_back(std::move(sql));
    }
    return out;
}

std::vector<std::string> server_side_generate_statements(int scale) {
    return {
        fmt::format("insert into pgbench_branches(bid,bbalance) "
                    "select bid, 0 "
                    "from generate_series(1, {}) as bid",
                    k_branches_per_scale * scale),
        fmt::format("insert into pgbench_tellers(tid,bid,tbalance) "
                    "select tid, (tid - 1) / {} + 1, 0 "
                    "from generate_series(1, {}) as tid",
                    k_tellers_per_scale, k_tellers_per_scale * scale),
        fmt::format("insert into pgbench_accounts(aid,bid,abalance,filler) "
                    "select aid, (aid - 1) / {} + 1, 0, '' "
                    "from generate_series(1, {}) as aid",
                    k_accounts_per_scale, account_count(scale)),
    };
}

std::vector<std::string> vacuum_statements() {
    return {
        "vacuum analyze pgbench_branches",
        "vacuum analyze pgbench_tellers",
        "vacuum analyze pgbench_accounts",
        "vacuum analyze pgbench_history",
    };
}

std::vector<std::string> primary_key_statements(std::string_view index_tablespace) {
    std::vector<std::string> out = {
        "alter table pgbench_branches add primary key (bid)",
        "alter table pgbench_tellers add primary key (tid)",
        "alter table pgbench_accounts add primary key (aid)",
    };
    if (!index_tablespace.empty()) {
        for (std::string& sql : out) {
            sql += fmt::format(" using index tablespace {}", index_tablespace);
        }
    }
    return out;
}

std::vector<std::string> foreign_key_statements() {
    return {
        "alter table pgbench_tellers add constraint pgbench_tellers_bid_fkey foreign key (bid) "
        "references pgbench_branches",
        "alter table pgbench_accounts add constraint pgbench_accounts_bid_fkey foreign key (bid) "
        "references pgbench_branches",
        "alter table pgbench_history add constraint pgbench_history_bid_fkey foreign key (bid) "
        "references pgbench_branches",
        "alter table pgbench_history add constraint pgbench_history_tid_fkey foreign key (tid) "
        "references pgbench_tellers",
        "alter table pgbench_history add constraint pgbench_history_aid_fkey foreign key (aid) "
        "references pgbench_accounts",
    };
}

std::string copy_accounts_statement(const InitOptions& options, int server_version) {
    if (effective_partition_method(options) == PartitionMethod::none
        && server_version >= k_copy_freeze_min_version) {
        return "copy pgbench_accounts from stdin with (freeze on)";
    }
    return "copy pgbench_accounts from stdin";
}

std::string branch_insert_statement(int bid) {
    return fmt::format("insert into pgbench_branches(bid,bbalance) values({},0)", bid);
}

std::string teller_insert_statement(int tid) {
    return fmt::format("insert into pgbench_tellers(tid,bid,tbalance) values ({},{},0)", tid,
                       (tid - 1) / k_tellers_per_scale + 1);
}

} // namespace pglab::init
