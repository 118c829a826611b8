// Step g: INSERTs for branches and tellers, then COPY of pgbench_accounts in large buffers
// (one put_copy_data per progress checkpoint, at most 100000 rows), as pgbench 15 does row by row.
#include "init/generate_client_side.hpp"

#include "init/copy_progress.hpp"
#include "init/init_sql.hpp"
#include "pg/interrupt_canceller.hpp"

#include <unistd.h>

#include <charconv>
#include <cstdio>

namespace pglab::init {

namespace {

/// Rows buffered before they go to libpq when no progress checkpoint comes first.
constexpr int64_t k_rows_per_buffer = 100000;

/// Appends `aid\tbid\t0\t\n` (filler is the blank-padded empty string).
void append_row(std::string& buf, int64_t aid, int64_t bid) {
    char digits[24];
    auto r = std::to_chars(digits, digits + sizeof digits, aid);
    buf.append(digits, r.ptr);
    buf += '\t';
    r = std::to_chars(digits, digits + sizeof digits, bid);
    buf.append(digits, r.ptr);
    buf += "\t0\t\n";
}

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

Status start_copy(const InitSession& s) {
    const std::string sql = copy_accounts_statement(s.options, s.conn.server_version());
    auto res = s.conn.exec(sql);
    if (!res || res->status() != pg::ResultStatus::copy_in) {
        std::string message = s.conn.error_message();
        while (!message.empty() && message.back() == '\n') {
            message.pop_back();
        }
        return make_error("unexpected copy in result: " + message);
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

Status copy_accounts(const InitSession& s) {
    PGLAB_TRY(start_copy(s));
    const int64_t total = account_count(s.options.scale);
    const char eol = ::isatty(STDERR_FILENO) != 0 ? '\r' : '\n';
    CopyProgress progress(total, s.options.quiet, eol);
    std::string buf;
    constexpr size_t k_row_bytes_estimate = 24;
    buf.reserve(static_cast<size_t>(k_rows_per_buffer) * k_row_bytes_estimate);

    for (int64_t k = 0; k < total; ++k) {
        const int64_t j = k + 1;
        append_row(buf, j, k / k_accounts_per_scale + 1);
        if (pg::InterruptCanceller::interrupt_requested()) {
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

} // namespace

Status generate_data_client_side(const InitSession& s) {
    print_stderr("generating data (client-side)...\n");
    // one transaction, so that the server's data-loading optimisations (COPY FREEZE) apply
    PGLAB_TRY(s.execute("begin"));
    PGLAB_TRY(s.execute(k_truncate_tables_sql));
    PGLAB_TRY(insert_branches_and_tellers(s));
    PGLAB_TRY(copy_accounts(s));
    return s.execute("commit");
}

} // namespace pglab::init
