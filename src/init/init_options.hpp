// Options of `pglab bench -i` (pgbench's initialization mode), validated by cli/.
#pragma once

#include "pg/conn_params.hpp"

#include <string>

#include "compat/pgbench_profile.hpp"

namespace pglab::init {

enum class PartitionMethod : uint8_t { none, range, hash };

struct InitOptions {
    /// The pgbench release whose initialisation this reproduces (static storage).
    const compat::PgbenchProfile* pgbench = &compat::default_pgbench_profile();
    pg::ConnParams conn;
    std::string steps = "dtgvp"; ///< from "dtgGvpf", in order; spaces are skipped
    int scale = 1;               ///< -s
    int fillfactor = 100;        ///< -F
    bool quiet = false;          ///< -q: progress every 5 s instead of every 100000 rows
    bool unlogged = false;       ///< --unlogged-tables
    int partitions = 0;          ///< --partitions
    PartitionMethod partition_method = PartitionMethod::none;
    std::string tablespace;       ///< --tablespace, empty = default
    std::string index_tablespace; ///< --index-tablespace, empty = default
};

} // namespace pglab::init
