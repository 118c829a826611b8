// Step g: up to pgbench 16, INSERTs for branches and tellers, then COPY of pgbench_accounts; from
// 17, a COPY into each table. Rows go in large buffers (one put_copy_data per progress checkpoint,
// at most 100000 rows) where pgbench sends them row by row.
#include "init/generate_client_side.hpp"

#include "init/copy_progress.hpp"
#include "init/init_sql.hpp"
#include "pg/interrupt_canceller.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace pglab::init {

namespace {

/// Rows buffered before they go to libpq when no progress checkpoint comes first.
constexpr int64_t k_rows_per_buffer = 100000;

void append_number(std::string& buf, int64_t v) {
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, v);
    buf.append(digits, r.ptr);
}

/// A row of pgbench_accounts, `k` counting from 0: `aid\tbid\t0\t\n` (the filler is the
/// blank-padded empty string).
void append_account(std::string& buf, int64_t k) {
    append_number(buf, k + 1);
    buf += '\t';
    append_number(buf, k / k_accounts_per_scale + 1);
    buf += "\t0\t\n";
}

/// A row of pgbench_branches (17's COPY): `bid\t0\t\N\n` (the filler is NULL, as its INSERT's).
void append_branch(std::string& buf, int64_t k) {
    append_number(buf, k + 1);
    buf += "\t0\t\\N\n";
}

/// A row of pgbench_tellers (17's COPY): `tid\tbid\t0\t\N\n`.
void append_teller(std::string& buf, int64_t k) {
    append_number(buf, k + 1);
    buf += '\t';
    append_number(buf, k / k_tellers_per_scale + 1);
    buf += "\t0\t\\N\n";
}

using AppendRow = void (*)(std::string&, int64_t);

Status insert_branches_and_tellers(const InitSession& s) {
    // branches before tellers before accounts, in case foreign keys already exist
    for (int bid = 1; bid <= k_branches_per_scale * s.options.scale; ++bid) {
        PGLAB_TRY(s.execute(branch_insert_statement(bid)));
    }
    for (int tid = 1; tid <= k_tellers_per_scale * s.options.scale; ++tid) {
        PGLAB_TRY(s.execute(teller_insert_statement(tid)));
    }
    return {};
}

/// 17's choice: COPY FREEZE into every ordinary table (not into a partitioned one) from 14 on.
Result<std::string> copy_statement_17(const InitSession& s, std::string_view table) {
    if (s.conn.server_version() >= k_copy_freeze_min_version) {
        const std::string sql = fmt::format(
            "SELECT relkind FROM pg_catalog.pg_class WHERE oid='{}'::pg_catalog.regclass", table);
        auto res = s.conn.exec(sql);
        if (!res || res->status() != pg::ResultStatus::tuples_ok || res->ntuples() != 1) {
            return make_error(
                Error(fmt::format("query failed: {}", res ? std::string() : res.error().message),
                      fmt::format("Query was: {}", sql)));
        }
        if (std::string_view(res->value(0, 0)) == "r") {
            return fmt::format("copy {} from stdin with (freeze on)", table);
        }
    }
    return fmt::format("copy {} from stdin", table);
}

Status start_copy(const InitSession& s, const std::string& sql) {
    auto res = s.conn.exec(sql);
    if (!res || res->status() != pg::ResultStatus::copy_in) {
        // exec's error is libpq's message without its newline; a wrong status has none
        return make_error("unexpected copy in result: "
                          + (res ? std::string() : res.error().message));
    }
    return {};
}

Status send(const InitSession& s, std::string& buf) {
    if (!buf.empty()) {
        if (!s.conn.put_copy_data(buf)) {
            return make_error("PQputline failed");
        }
        buf.clear();
    }
    return {};
}

/// One COPY of `total` rows made by `append_row`, with pgbench's progress lines (naming
/// `progress_table` when not empty).
Status copy_rows(const InitSession& s, const std::string& statement, int64_t total,
                 AppendRow append_row, std::string_view progress_table) {
    PGLAB_TRY(start_copy(s, statement));
    const char eol = ::isatty(STDERR_FILENO) != 0 ? '\r' : '\n';
    CopyProgress progress(total, s.options.quiet, eol, progress_table);
    std::string buf;
    constexpr size_t k_row_bytes_estimate = 24;
    buf.reserve(static_cast<size_t>(std::min(total, k_rows_per_buffer)) * k_row_bytes_estimate);

    for (int64_t k = 0; k < total; ++k) {
        const int64_t j = k + 1;
        append_row(buf, k);
        if (util::stop_signalled()) {
            break;
        }
        if (progress.is_checkpoint(j)) {
            const bool due = progress.is_due(j);
            if (due || j % k_rows_per_buffer == 0) {
                PGLAB_TRY(send(s, buf));
            }
            if (due) {
                print_stderr(progress.line_at(j));
            }
        }
    }
    PGLAB_TRY(send(s, buf));
    print_stderr(progress.finish());

    if (auto end = s.conn.put_copy_end(); !end) {
        // libpq's PQendcopy reports the server error through the notice processor
        print_stderr(end.error().message + "\n");
        return make_error("PQendcopy failed");
    }
    return {};
}

/// Up to 16: INSERTs for branches and tellers, COPY for accounts, progress without a name.
Status generate_15(const InitSession& s) {
    PGLAB_TRY(insert_branches_and_tellers(s));
    return copy_rows(s, copy_accounts_statement(s.options, s.conn.server_version()),
                     account_count(s.options.scale), append_account, {});
}

/// From 17: one COPY per table, each progress line naming its table.
Status generate_17(const InitSession& s) {
    struct Table {
        std::string_view name;
        int64_t per_scale;
        AppendRow append_row;
    };

    const Table tables[] = {
        {"pgbench_branches", k_branches_per_scale, append_branch},
        {"pgbench_tellers", k_tellers_per_scale, append_teller},
        {"pgbench_accounts", k_accounts_per_scale, append_account},
    };
    for (const Table& t : tables) {
        PGLAB_TRY_ASSIGN(const std::string statement, copy_statement_17(s, t.name));
        PGLAB_TRY(copy_rows(s, statement, t.per_scale * s.options.scale, t.append_row, t.name));
    }
    return {};
}

} // namespace

Status generate_data_client_side(const InitSession& s) {
    print_stderr("generating data (client-side)...\n");
    // one transaction, so that the server's data-loading optimisations (COPY FREEZE) apply
    PGLAB_TRY(s.execute("begin"));
    PGLAB_TRY(s.execute(k_truncate_tables_sql));
    // branches before tellers before accounts, in case foreign keys already exist
    PGLAB_TRY(s.options.pgbench->copy_every_table ? generate_17(s) : generate_15(s));
    return s.execute("commit");
}

} // namespace pglab::init
