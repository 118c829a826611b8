// Steps d t G v p f of pgbench -i: banners on stderr, then the statements of init_sql.
#include "init/steps.hpp"

#include "init/init_sql.hpp"

#include <fmt/format.h>

namespace pglab::init {

namespace {

Status execute_all(const InitSession& s, const std::vector<std::string>& statements) {
    for (const std::string& sql : statements) {
        PGLAB_TRY(s.execute(sql));
    }
    return {};
}

/// `name` quoted with PQescapeIdentifier, or "" when `name` is empty.
Result<std::string> quoted_or_empty(const InitSession& s, const std::string& name) {
    if (name.empty()) {
        return std::string();
    }
    return s.conn.escape_identifier(name);
}

} // namespace

Status drop_tables(const InitSession& s) {
    print_stderr("dropping old tables...\n");
    return s.execute(k_drop_tables_sql);
}

Status create_tables(const InitSession& s) {
    print_stderr("creating tables...\n");
    PGLAB_TRY_ASSIGN(const std::string tablespace, quoted_or_empty(s, s.options.tablespace));
    PGLAB_TRY(execute_all(s, create_table_statements(s.options, tablespace)));
    if (effective_partition_method(s.options) != PartitionMethod::none) {
        print_stderr(fmt::format("creating {} partitions...\n", s.options.partitions));
        PGLAB_TRY(execute_all(s, create_partition_statements(s.options)));
    }
    return {};
}

Status generate_data_server_side(const InitSession& s) {
    print_stderr("generating data (server-side)...\n");
    // one transaction, so that the server's data-loading optimisations apply
    PGLAB_TRY(s.execute("begin"));
    PGLAB_TRY(s.execute(k_truncate_tables_sql));
    PGLAB_TRY(execute_all(s, server_side_generate_statements(s.options.scale)));
    return s.execute("commit");
}

Status vacuum_tables(const InitSession& s) {
    print_stderr("vacuuming...\n");
    return execute_all(s, vacuum_statements());
}

Status create_primary_keys(const InitSession& s) {
    print_stderr("creating primary keys...\n");
    PGLAB_TRY_ASSIGN(const std::string index_tablespace,
                     quoted_or_empty(s, s.options.index_tablespace));
    return execute_all(s, primary_key_statements(index_tablespace));
}

Status create_foreign_keys(const InitSession& s) {
    print_stderr("creating foreign keys...\n");
    return execute_all(s, foreign_key_statements());
}

} // namespace pglab::init
