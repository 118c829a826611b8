// The SQL text of pgbench 15's initialization steps, built from InitOptions. Pure: no libpq,
// identifiers arrive already quoted.
#pragma once

#include "init/init_options.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::init {

/// Rows per scale unit, as pgbench's nbranches, ntellers and naccounts.
constexpr int k_branches_per_scale = 1;
constexpr int k_tellers_per_scale = 10;
constexpr int k_accounts_per_scale = 100000;
/// The first server version whose COPY takes FREEZE (pgbench uses it from 14 on).
constexpr int k_copy_freeze_min_version = 140000;

/// From this scale on, account ids are bigint (pgbench's SCALE_32BIT_THRESHOLD).
constexpr int k_scale_32bit_threshold = 20000;

constexpr std::string_view k_drop_tables_sql = "drop table if exists "
                                               "pgbench_accounts, "
                                               "pgbench_branches, "
                                               "pgbench_history, "
                                               "pgbench_tellers";

constexpr std::string_view k_truncate_tables_sql = "truncate table "
                                                   "pgbench_accounts, "
                                                   "pgbench_branches, "
                                                   "pgbench_history, "
                                                   "pgbench_tellers";

/// Number of pgbench_accounts rows for `scale`.
inline int64_t account_count(int scale) {
    return static_cast<int64_t>(k_accounts_per_scale) * scale;
}

/// The partition method actually used: range when partitions are asked for without a method.
PartitionMethod effective_partition_method(const InitOptions& options);

/// The four CREATE TABLE statements (history, tellers, accounts, branches). `tablespace` is the
/// quoted identifier, or empty for the default tablespace.
std::vector<std::string> create_table_statements(const InitOptions& options,
                                                 std::string_view tablespace);

/// CREATE TABLE ... PARTITION OF statements, one per partition (empty when not partitioned).
std::vector<std::string> create_partition_statements(const InitOptions& options);

/// INSERT ... SELECT statements of server-side generation (branches, tellers, accounts).
std::vector<std::string> server_side_generate_statements(int scale);

/// VACUUM ANALYZE of branches, tellers, accounts, history.
std::vector<std::string> vacuum_statements();

/// ALTER TABLE ... ADD PRIMARY KEY for branches, tellers, accounts; `index_tablespace` is the
/// quoted identifier or empty.
std::vector<std::string> primary_key_statements(std::string_view index_tablespace);

/// The five foreign-key constraints, in pgbench's order.
std::vector<std::string> foreign_key_statements();

/// COPY statement for pgbench_accounts (FREEZE from server 14 on, when not partitioned).
std::string copy_accounts_statement(const InitOptions& options, int server_version);

/// Client-side generation's INSERT of branch `bid` (1-based; filler stays NULL).
std::string branch_insert_statement(int bid);

/// Client-side generation's INSERT of teller `tid` (1-based), in branch (tid-1)/10+1.
std::string teller_insert_statement(int tid);

} // namespace pglab::init
