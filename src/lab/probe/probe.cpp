// Snapshots of the server's statistics views and of CPU times, and their differences. Views
// and columns differ between PostgreSQL 11 and 18: the catalog says which exist, and each
// probe reads only those. See docs/probes.md.
#include "lab/probe/probe.hpp"

#include "pg/connection.hpp"
#include "util/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <set>
#include <system_error>
#include <utility>

namespace pglab::lab::probe {

namespace fs = std::filesystem;

namespace {

/// One statistics column and the sample it becomes. Several columns may give the same name
/// on different versions (pg_stat_bgwriter.checkpoints_timed before 17,
/// pg_stat_checkpointer.num_timed from 17): only one of them exists on a given server.
struct Column {
    const char* view;
    const char* column;
    const char* name;
    const char* unit;
};

// In output order; docs/probes.md lists the same.
constexpr Column k_wal_columns[] = {
    {"pg_stat_wal", "wal_records", "wal.records", "count"},
    {"pg_stat_wal", "wal_fpi", "wal.fpi", "count"},
    {"pg_stat_wal", "wal_fpi_bytes", "wal.fpi_bytes", "bytes"}, // 19+
    {"pg_stat_wal", "wal_bytes", "wal.stat_bytes", "bytes"},
    {"pg_stat_wal", "wal_buffers_full", "wal.buffers_full", "count"},
    {"pg_stat_wal", "wal_write", "wal.write", "count"},
    {"pg_stat_wal", "wal_sync", "wal.sync", "count"},
    {"pg_stat_wal", "wal_write_time", "wal.write_time", "ms"},
    {"pg_stat_wal", "wal_sync_time", "wal.sync_time", "ms"},
};

/// pg_stat_io's operations the io.* probes read (16+), and the wal.* name each becomes for the
/// rows of object 'wal' (18+, where pg_stat_wal lost wal_write, wal_sync and their times).
struct IoOperation {
    const char* column;
    const char* name;
    const char* unit;
    const char* wal_name;
};

constexpr IoOperation k_io_operations[] = {
    {"writes", "writes", "count", "wal.write"},
    {"write_time", "write_time", "ms", "wal.write_time"},
    {"fsyncs", "fsyncs", "count", "wal.sync"},
    {"fsync_time", "fsync_time", "ms", "wal.sync_time"},
};

constexpr Column k_database_columns[] = {
    {"pg_stat_database", "xact_commit", "db.xact_commit", "count"},
    {"pg_stat_database", "xact_rollback", "db.xact_rollback", "count"},
    {"pg_stat_database", "blks_read", "db.blks_read", "blocks"},
    {"pg_stat_database", "blks_hit", "db.blks_hit", "blocks"},
    {"pg_stat_database", "tup_returned", "db.tup_returned", "rows"},
    {"pg_stat_database", "tup_fetched", "db.tup_fetched", "rows"},
    {"pg_stat_database", "tup_inserted", "db.tup_inserted", "rows"},
    {"pg_stat_database", "tup_updated", "db.tup_updated", "rows"},
    {"pg_stat_database", "tup_deleted", "db.tup_deleted", "rows"},
    {"pg_stat_database", "conflicts", "db.conflicts", "count"},
    {"pg_stat_database", "temp_files", "db.temp_files", "count"},
    {"pg_stat_database", "temp_bytes", "db.temp_bytes", "bytes"},
    {"pg_stat_database", "deadlocks", "db.deadlocks", "count"},
    {"pg_stat_database", "blk_read_time", "db.blk_read_time", "ms"},
    {"pg_stat_database", "blk_write_time", "db.blk_write_time", "ms"},
};

/// Autovacuum and autoanalyze runs that ended, over the connection's database's tables (summed:
/// a view of one row per table). A run of either during a step is a disturbance the report
/// flags.
constexpr Column k_table_columns[] = {
    {"pg_stat_all_tables", "autovacuum_count", "db.autovacuum_count", "count"},
    {"pg_stat_all_tables", "autoanalyze_count", "db.autoanalyze_count", "count"},
};

constexpr Column k_background_columns[] = {
    {"pg_stat_checkpointer", "num_timed", "checkpointer.num_timed", "count"},
    {"pg_stat_bgwriter", "checkpoints_timed", "checkpointer.num_timed", "count"},
    {"pg_stat_checkpointer", "num_requested", "checkpointer.num_requested", "count"},
    {"pg_stat_bgwriter", "checkpoints_req", "checkpointer.num_requested", "count"},
    {"pg_stat_checkpointer", "num_done", "checkpointer.num_done", "count"},
    {"pg_stat_checkpointer", "write_time", "checkpointer.write_time", "ms"},
    {"pg_stat_bgwriter", "checkpoint_write_time", "checkpointer.write_time", "ms"},
    {"pg_stat_checkpointer", "sync_time", "checkpointer.sync_time", "ms"},
    {"pg_stat_bgwriter", "checkpoint_sync_time", "checkpointer.sync_time", "ms"},
    {"pg_stat_checkpointer", "buffers_written", "checkpointer.buffers_written", "blocks"},
    {"pg_stat_bgwriter", "buffers_checkpoint", "checkpointer.buffers_written", "blocks"},
    {"pg_stat_bgwriter", "buffers_clean", "bgwriter.buffers_clean", "blocks"},
    {"pg_stat_bgwriter", "maxwritten_clean", "bgwriter.maxwritten_clean", "count"},
    {"pg_stat_bgwriter", "buffers_alloc", "bgwriter.buffers_alloc", "blocks"},
    {"pg_stat_bgwriter", "buffers_backend", "backend.buffers_written", "blocks"},
    {"pg_stat_bgwriter", "buffers_backend_fsync", "backend.fsyncs", "count"},
};

using ColumnSet = std::set<std::pair<std::string, std::string>>;

/// The (view, column) pairs of the statistics views this server has.
Result<ColumnSet> existing_columns(pg::Connection& conn) {
    PGLAB_TRY_ASSIGN(pg::QueryResult r,
                     conn.exec("SELECT c.relname, a.attname FROM pg_catalog.pg_attribute a"
                               " JOIN pg_catalog.pg_class c ON c.oid = a.attrelid"
                               " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                               " WHERE n.nspname = 'pg_catalog' AND c.relname IN ('pg_stat_wal',"
                               " 'pg_stat_database', 'pg_stat_bgwriter', 'pg_stat_checkpointer',"
                               " 'pg_stat_io')"
                               " AND a.attnum > 0 AND NOT a.attisdropped"));
    ColumnSet columns;
    for (int row = 0; row < r.ntuples(); ++row) {
        columns.emplace(r.value(row, 0), r.value(row, 1));
    }
    return columns;
}

/// Runs `sql` inside a savepoint: a failure (a missing function, permission denied) rolls back
/// to it and is returned, leaving the transaction usable.
Result<pg::QueryResult> exec_guarded(pg::Connection& conn, const std::string& sql) {
    PGLAB_TRY(conn.exec_command("SAVEPOINT pglab_probe"));
    Result<pg::QueryResult> r = conn.exec(sql);
    if (!r) {
        PGLAB_TRY(conn.exec_command("ROLLBACK TO SAVEPOINT pglab_probe"));
    }
    PGLAB_TRY(conn.exec_command("RELEASE SAVEPOINT pglab_probe"));
    return r;
}

/// Reads the `columns` that exist from their views in one query each view.
Status read_columns(pg::Connection& conn, const ColumnSet& existing, const Column* begin,
                    const Column* end, Snapshot& snapshot) {
    std::vector<std::string> views;
    for (const Column* c = begin; c != end; ++c) {
        if (std::find(views.begin(), views.end(), c->view) == views.end()) {
            views.emplace_back(c->view);
        }
    }
    for (const std::string& view : views) {
        std::vector<const Column*> present;
        std::string select;
        for (const Column* c = begin; c != end; ++c) {
            if (c->view == view && existing.count({c->view, c->column}) > 0) {
                present.push_back(c);
                // A view of one row per table is summed into one figure.
                const std::string column = view == "pg_stat_all_tables"
                                               ? fmt::format("coalesce(sum({}), 0)", c->column)
                                               : std::string(c->column);
                select += fmt::format("{}{}::float8", select.empty() ? "" : ", ", column);
            }
        }
        if (present.empty()) {
            snapshot.notes.push_back(fmt::format("{}: not on this server", view));
            continue;
        }
        std::string sql = fmt::format("SELECT {} FROM pg_catalog.{}", select, view);
        if (view == "pg_stat_database") {
            sql += " WHERE datname = current_database()";
        }
        Result<pg::QueryResult> r = exec_guarded(conn, sql);
        if (!r) {
            if (conn.connection_bad()) {
                return make_error(r.error());
            }
            snapshot.notes.push_back(
                fmt::format("{}: {}", view, util::first_line(r.error().message)));
            continue;
        }
        if (r->ntuples() != 1) {
            snapshot.notes.push_back(fmt::format("{}: {} rows", view, r->ntuples()));
            continue;
        }
        for (size_t i = 0; i < present.size(); ++i) {
            const int col = static_cast<int>(i);
            if (!r->is_null(0, col)) {
                snapshot.samples.push_back(Sample{present[i]->name,
                                                  std::strtod(r->value(0, col), nullptr),
                                                  present[i]->unit, Kind::counter});
            }
        }
    }
    return {};
}

/// "client backend" -> "client_backend": a name part of a sample.
std::string name_part(std::string text) {
    std::replace(text.begin(), text.end(), ' ', '_');
    return text;
}

/// pg_stat_io (16+): writes, fsyncs and their times in total (io.writes...), by backend type,
/// object and context (io.<backend_type>.<object>.<context>.writes...: only the combinations
/// where the operation exists, NULL elsewhere), and, where pg_stat_wal has no wal_write (18+),
/// wal.write, wal.sync and their times from the rows of object 'wal'.
Status read_io(pg::Connection& conn, const ColumnSet& existing, Snapshot& snapshot) {
    std::vector<const IoOperation*> present;
    std::string select = "backend_type, object, context";
    for (const IoOperation& op : k_io_operations) {
        if (existing.count({"pg_stat_io", op.column}) > 0) {
            present.push_back(&op);
            select += fmt::format(", {}::float8", op.column);
        }
    }
    if (present.empty()) {
        snapshot.notes.emplace_back("pg_stat_io: not on this server");
        return {};
    }
    Result<pg::QueryResult> r = exec_guarded(
        conn, fmt::format("SELECT {} FROM pg_catalog.pg_stat_io ORDER BY 1, 2, 3", select));
    if (!r) {
        if (conn.connection_bad()) {
            return make_error(r.error());
        }
        snapshot.notes.push_back(
            fmt::format("pg_stat_io: {}", util::first_line(r.error().message)));
        return {};
    }
    const bool wal_from_io = existing.count({"pg_stat_wal", "wal_write"}) == 0;
    std::vector<double> totals(present.size(), 0.0);
    std::vector<double> wal(present.size(), 0.0);
    std::vector<Sample> rows;
    for (int row = 0; row < r->ntuples(); ++row) {
        const std::string prefix =
            fmt::format("io.{}.{}.{}.", name_part(r->value(row, 0)), name_part(r->value(row, 1)),
                        name_part(r->value(row, 2)));
        const bool is_wal = std::string_view(r->value(row, 1)) == "wal";
        for (size_t i = 0; i < present.size(); ++i) {
            const int col = static_cast<int>(i) + 3;
            if (r->is_null(row, col)) {
                continue;
            }
            const double v = std::strtod(r->value(row, col), nullptr);
            totals[i] += v;
            wal[i] += is_wal ? v : 0.0;
            rows.push_back(Sample{prefix + present[i]->name, v, present[i]->unit, Kind::counter});
        }
    }
    if (wal_from_io) {
        for (size_t i = 0; i < present.size(); ++i) {
            snapshot.samples.push_back(
                Sample{present[i]->wal_name, wal[i], present[i]->unit, Kind::counter});
        }
    }
    for (size_t i = 0; i < present.size(); ++i) {
        snapshot.samples.push_back(Sample{std::string("io.") + present[i]->name, totals[i],
                                          present[i]->unit, Kind::counter});
    }
    snapshot.samples.insert(snapshot.samples.end(), rows.begin(), rows.end());
    return {};
}

bool is_segment_name(const std::string& name) {
    return name.size() == 24 && std::all_of(name.begin(), name.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
           });
}

/// WAL segment files: pg_ls_waldir() (superuser or pg_monitor), else the data directory.
Status read_segment_count(pg::Connection& conn, const ProbeContext& context, Snapshot& snapshot) {
    Result<pg::QueryResult> r = exec_guarded(
        conn, "SELECT count(*) FROM pg_catalog.pg_ls_waldir() WHERE name ~ '^[0-9A-F]{24}$'");
    if (r && r->ntuples() == 1) {
        snapshot.samples.push_back(Sample{"wal.segment_files", std::strtod(r->value(0, 0), nullptr),
                                          "count", Kind::level});
        return {};
    }
    if (!r && conn.connection_bad()) {
        return make_error(r.error());
    }
    if (!context.data_dir.empty()) {
        std::error_code ec;
        double count = 0;
        for (fs::directory_iterator it(context.data_dir / "pg_wal", ec), end; !ec && it != end;
             it.increment(ec)) {
            count += is_segment_name(it->path().filename().string()) ? 1 : 0;
        }
        if (!ec) {
            snapshot.samples.push_back(Sample{"wal.segment_files", count, "count", Kind::level});
            return {};
        }
    }
    snapshot.notes.push_back(fmt::format("wal.segment_files: {}",
                                         r ? "no result" : util::first_line(r.error().message)));
    return {};
}

/// The current database's size on disk (pg_database_size): a level, what the step leaves (an
/// `init` step's tables and indexes).
Status read_database_size(pg::Connection& conn, Snapshot& snapshot) {
    Result<pg::QueryResult> r =
        exec_guarded(conn, "SELECT pg_catalog.pg_database_size(pg_catalog.current_database())");
    if (r && r->ntuples() == 1 && !r->is_null(0, 0)) {
        snapshot.samples.push_back(
            Sample{"db.size_bytes", std::strtod(r->value(0, 0), nullptr), "bytes", Kind::level});
        return {};
    }
    if (!r && conn.connection_bad()) {
        return make_error(r.error());
    }
    snapshot.notes.push_back(
        fmt::format("db.size_bytes: {}", r ? "no result" : util::first_line(r.error().message)));
    return {};
}

/// The postmaster of a local server: the parent of the connection's backend, when the
/// connection uses a unix socket and /proc shows that backend as a postgres process.
pid_t local_postmaster_pid(pg::Connection& conn, const ProbeContext& context) {
    if (conn.host().empty() || conn.host().front() != '/') {
        return 0;
    }
    Result<pg::QueryResult> r = conn.exec("SELECT pg_backend_pid()");
    if (!r || r->ntuples() != 1) {
        return 0;
    }
    const pid_t backend = static_cast<pid_t>(std::atol(r->value(0, 0)));
    std::ifstream in(context.proc_root / std::to_string(backend) / "comm");
    std::string comm;
    if (!in || !std::getline(in, comm) || (comm != "postgres" && comm != "postmaster")) {
        return 0; // another pid namespace: not our process
    }
    std::ifstream stat(context.proc_root / std::to_string(backend) / "stat");
    std::string line;
    if (!std::getline(stat, line)) {
        return 0;
    }
    const std::optional<ProcStat> st = parse_proc_stat(line);
    return st ? st->ppid : 0;
}

/// Times the server measures only when asked (track_io_timing, track_wal_io_timing, as this
/// session has them: pglab's sessions all get the file's settings) stay 0 otherwise, which would
/// read as "no time spent": such samples are left out, with a note. A total of pg_stat_io that
/// sums rows of both kinds (io.write_time) needs both.
Status drop_unmeasured_times(pg::Connection& conn, Snapshot& snapshot) {
    Result<pg::QueryResult> r = exec_guarded(conn, "SELECT current_setting('track_io_timing'),"
                                                   " current_setting('track_wal_io_timing', true)");
    if (!r) {
        if (conn.connection_bad()) {
            return make_error(r.error());
        }
        return {}; // the times stay: nothing says they were not measured
    }
    const bool io = std::string_view(r->value(0, 0)) == "on";
    const bool wal = !r->is_null(0, 1) && std::string_view(r->value(0, 1)) == "on";
    const auto unmeasured = [&](const std::string& name) {
        if (!name.ends_with("_time")) {
            return false;
        }
        if (name == "wal.write_time" || name == "wal.sync_time") {
            return !wal;
        }
        if (name == "db.blk_read_time" || name == "db.blk_write_time") {
            return !io;
        }
        if (name.starts_with("io.")) {
            const bool total = std::count(name.begin(), name.end(), '.') == 1;
            const bool wal_row = name.find(".wal.") != std::string::npos;
            return total ? !(io && wal) : wal_row ? !wal : !io;
        }
        return false; // checkpointer.*_time: always measured
    };
    const auto dropped = std::remove_if(snapshot.samples.begin(), snapshot.samples.end(),
                                        [&](const Sample& s) { return unmeasured(s.name); });
    if (dropped != snapshot.samples.end()) {
        snapshot.samples.erase(dropped, snapshot.samples.end());
        snapshot.notes.push_back(fmt::format(
            "I/O times left out: not measured with{}{}{} off", io ? "" : " track_io_timing",
            !io && !wal ? " and" : "", wal ? "" : " track_wal_io_timing"));
    }
    return {};
}

Status read_all(pg::Connection& conn, const ProbeContext& context, Snapshot& snapshot) {
    Result<pg::QueryResult> lsn = exec_guarded(
        conn,
        "SELECT pg_current_wal_insert_lsn()::text, (SELECT setting FROM pg_catalog.pg_settings"
        " WHERE name = 'wal_segment_size')");
    if (lsn && lsn->ntuples() == 1) {
        if (const std::optional<unsigned long long> pos = parse_lsn(lsn->value(0, 0))) {
            snapshot.insert_lsn = pos;
            snapshot.samples.push_back(
                Sample{"wal.bytes", static_cast<double>(*pos), "bytes", Kind::counter});
        }
        if (!lsn->is_null(0, 1)) {
            // Bytes since PostgreSQL 11 (the oldest pglab runs).
            snapshot.wal_segment_size = std::strtoull(lsn->value(0, 1), nullptr, 10);
        }
    } else if (!lsn) {
        if (conn.connection_bad()) {
            return make_error(lsn.error());
        }
        snapshot.notes.push_back(
            fmt::format("wal.bytes: {}", util::first_line(lsn.error().message)));
    }
    PGLAB_TRY_ASSIGN(const ColumnSet existing, existing_columns(conn));
    PGLAB_TRY(
        read_columns(conn, existing, std::begin(k_wal_columns), std::end(k_wal_columns), snapshot));
    PGLAB_TRY(read_segment_count(conn, context, snapshot));
    PGLAB_TRY(read_columns(conn, existing, std::begin(k_database_columns),
                           std::end(k_database_columns), snapshot));
    PGLAB_TRY(read_database_size(conn, snapshot));
    PGLAB_TRY(read_columns(conn, existing, std::begin(k_table_columns), std::end(k_table_columns),
                           snapshot));
    PGLAB_TRY(read_columns(conn, existing, std::begin(k_background_columns),
                           std::end(k_background_columns), snapshot));
    PGLAB_TRY(read_io(conn, existing, snapshot));
    PGLAB_TRY(drop_unmeasured_times(conn, snapshot));
    snapshot.postmaster_pid =
        context.postmaster_pid > 0 ? context.postmaster_pid : local_postmaster_pid(conn, context);
    return {};
}

} // namespace

const Sample* Snapshot::find(std::string_view name) const {
    const auto it = std::find_if(samples.begin(), samples.end(),
                                 [&](const Sample& s) { return s.name == name; });
    return it == samples.end() ? nullptr : &*it;
}

std::optional<unsigned long long> parse_lsn(std::string_view text) {
    const size_t slash = text.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == text.size()) {
        return std::nullopt;
    }
    unsigned long long high = 0;
    unsigned long long low = 0;
    const std::string_view a = text.substr(0, slash);
    const std::string_view b = text.substr(slash + 1);
    const auto ra = std::from_chars(a.data(), a.data() + a.size(), high, 16);
    const auto rb = std::from_chars(b.data(), b.data() + b.size(), low, 16);
    if (ra.ec != std::errc{} || ra.ptr != a.data() + a.size() || rb.ec != std::errc{}
        || rb.ptr != b.data() + b.size() || high > 0xFFFFFFFFULL || low > 0xFFFFFFFFULL) {
        return std::nullopt;
    }
    return (high << 32) | low;
}

Result<Snapshot> take_snapshot(pg::Connection& conn, const ProbeContext& context) {
    Snapshot snapshot;
    snapshot.server_version_num = conn.server_version();
    if (conn.in_transaction_block()) {
        return make_error("probe snapshot: the connection is inside a transaction block");
    }
    // One transaction: the snapshot adds one commit to pg_stat_database, whatever it reads.
    PGLAB_TRY(conn.exec_command("BEGIN"));
    const Status read = read_all(conn, context, snapshot);
    if (!read) {
        (void)conn.exec_command("ROLLBACK");
        return make_error(read.error());
    }
    PGLAB_TRY(conn.exec_command("COMMIT"));
    if (const std::optional<CpuTimes> server =
            server_cpu_times(snapshot.postmaster_pid, context.proc_root)) {
        snapshot.samples.push_back(Sample{"server.cpu_user_s", server->user_s, "s"});
        snapshot.samples.push_back(Sample{"server.cpu_system_s", server->system_s, "s"});
        snapshot.samples.push_back(Sample{"server.cpu_s", server->user_s + server->system_s, "s"});
    } else {
        snapshot.postmaster_pid = 0;
        snapshot.notes.emplace_back("server.cpu_*: the postmaster's /proc entry is not readable");
    }
    if (const std::optional<HostCpu> host = host_cpu_times(context.proc_root)) {
        snapshot.samples.push_back(Sample{"host.cpu_s", host->busy_s, "s"});
        snapshot.samples.push_back(Sample{"host.steal_s", host->steal_s, "s"});
        if (host->cpus > 0) {
            snapshot.samples.push_back(
                Sample{"host.cpus", static_cast<double>(host->cpus), "count", Kind::level});
        }
    }
    read_emulation(context, snapshot);
    const CpuTimes client = client_cpu_times();
    snapshot.samples.push_back(Sample{"client.cpu_user_s", client.user_s, "s"});
    snapshot.samples.push_back(Sample{"client.cpu_system_s", client.system_s, "s"});
    snapshot.samples.push_back(Sample{"client.cpu_s", client.user_s + client.system_s, "s"});
    snapshot.taken_at = std::chrono::steady_clock::now();
    return snapshot;
}

namespace {

/// Shares of the step's time, each a percentage: the server's and the machine's CPU over the
/// step as a share of all the machine's CPUs, what top's summary line shows (S5's paper read
/// "CPU 30%" there): server.cpu_pct, host.cpu_pct; and the time the server's backends spent
/// reading blocks (track_io_timing) over the step's time, db.blk_read_time_pct (S4's paper: the
/// build's reads take most of its time; a one-backend step's share of its own time).
void add_shares_of_elapsed(Deltas& deltas) {
    const std::optional<double> elapsed = find(deltas, "elapsed_s");
    if (!elapsed || *elapsed <= 0) {
        return;
    }
    if (const std::optional<double> read_ms = find(deltas, "db.blk_read_time")) {
        deltas.push_back(
            Delta{"db.blk_read_time_pct", 100.0 * (*read_ms / 1000.0) / *elapsed, "%"});
    }
    const std::optional<double> cpus = find(deltas, "host.cpus");
    if (!cpus || *cpus <= 0) {
        return;
    }
    const double capacity_s = *elapsed * *cpus;
    constexpr std::pair<const char*, const char*> k_shares[] = {{"server.cpu_s", "server.cpu_pct"},
                                                                {"host.cpu_s", "host.cpu_pct"}};
    for (const auto& [seconds, share] : k_shares) {
        if (const std::optional<double> used = find(deltas, seconds)) {
            deltas.push_back(Delta{share, 100.0 * *used / capacity_s, "%"});
        }
    }
}

} // namespace

Deltas diff(const Snapshot& before, const Snapshot& after) {
    Deltas deltas;
    deltas.push_back(Delta{
        "elapsed_s", std::chrono::duration<double>(after.taken_at - before.taken_at).count(), "s"});
    const bool same_postmaster =
        before.postmaster_pid != 0 && before.postmaster_pid == after.postmaster_pid;
    for (const Sample& a : after.samples) {
        const Sample* b = before.find(a.name);
        if (b == nullptr) {
            continue;
        }
        if (a.name.rfind("server.cpu", 0) == 0 && !same_postmaster) {
            continue;
        }
        if (a.kind == Kind::level) {
            deltas.push_back(Delta{a.name, a.value, a.unit});
        } else if (a.value >= b->value) {
            deltas.push_back(Delta{a.name, a.value - b->value, a.unit});
        }
    }
    if (before.insert_lsn && after.insert_lsn && *after.insert_lsn >= *before.insert_lsn
        && after.wal_segment_size > 0) {
        // The segment files the step's WAL lies in, the one it started in included: what a
        // listing of pg_wal shows after pg_resetwal left one empty segment (the S4 paper's
        // count), without resetting anything.
        const unsigned long long seg = after.wal_segment_size;
        deltas.push_back(Delta{
            "wal.segments_spanned",
            static_cast<double>(*after.insert_lsn / seg - *before.insert_lsn / seg + 1), "count"});
    }
    add_shares_of_elapsed(deltas);
    return deltas;
}

std::optional<double> find(const Deltas& deltas, std::string_view name) {
    const auto it =
        std::find_if(deltas.begin(), deltas.end(), [&](const Delta& d) { return d.name == name; });
    return it == deltas.end() ? std::nullopt : std::optional<double>(it->value);
}

} // namespace pglab::lab::probe
