// lab/store: StepRecord to and from its step object. A kind's fields are written when its record
// is there, and read back into its record only when the object has fields of its own: a skipped
// or not-run step, or one that failed before it recorded anything, has none.
#include "lab/store/step_json.hpp"

#include "lab/store/json_fields.hpp"
#include "util/named_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

namespace pglab::lab::store {

namespace {

using nlohmann::json;
namespace f = fields;

constexpr std::array<std::pair<StepStatus, const char*>, 6> k_step_names = {{
    {StepStatus::ok, "ok"},
    {StepStatus::failed, "failed"},
    {StepStatus::timed_out, "timed-out"},
    {StepStatus::interrupted, "interrupted"},
    {StepStatus::skipped, "skipped"},
    {StepStatus::not_run, "not-run"},
}};

/// The fields every step object has (the others are its kind's), with their types: a step with
/// one of another type is not read.
constexpr fields::FieldType k_common_fields[] = {
    {"index", fields::Kind::unsigned_integer},
    {"key", fields::Kind::text},
    {"type", fields::Kind::text},
    {"server", fields::Kind::text},
    {"status", fields::Kind::text},
    {"skip_reason", fields::Kind::text},
    {"error", fields::Kind::text, true},
    {"elapsed_ms", fields::Kind::number, true},
    {"log", fields::Kind::text, true},
    {"probes", fields::Kind::object, true},
    {"probe_units", fields::Kind::object},
    {"probe_notes", fields::Kind::array},
    {"replication", fields::Kind::object, true},
};

bool is_common_field(std::string_view key) {
    return std::any_of(std::begin(k_common_fields), std::end(k_common_fields),
                       [&](const fields::FieldType& f) { return key == f.key; });
}

std::optional<int> small_integer(const json& j, const char* key) {
    const auto n = f::integer(j, key);
    if (!n || *n < std::numeric_limits<int>::min() || *n > std::numeric_limits<int>::max()) {
        return std::nullopt;
    }
    return static_cast<int>(*n);
}

/// A count PostgreSQL gives whole up to 17 and with decimals from 18 ("Actual Rows"): a whole
/// one as an integer, as older lines have it.
json count_value(double n) {
    constexpr double k_exact = 9007199254740992.0; // 2^53
    if (std::trunc(n) == n && std::fabs(n) < k_exact) {
        return json(static_cast<std::int64_t>(n));
    }
    return json(n);
}

// --- the pieces several kinds share ---

json checks_json(const std::vector<CheckRecord>& checks) {
    json list = json::array();
    for (const CheckRecord& c : checks) {
        list.push_back(
            {{"kind", c.kind}, {"expected", c.expected}, {"actual", c.actual}, {"pass", c.pass}});
    }
    return list;
}

/// Whether `v` is a value a check compares: text, or a list of texts and NULLs (node types, a
/// row) or of such lists (rows).
bool is_check_value(const json& v) {
    const auto is_row = [](const json& row) {
        return row.is_array() && std::all_of(row.begin(), row.end(), [](const json& x) {
                   return x.is_string() || x.is_null();
               });
    };
    return v.is_string() || is_row(v)
           || (v.is_array() && std::all_of(v.begin(), v.end(), [&](const json& row) {
                   return row.is_string() || row.is_null() || is_row(row);
               }));
}

/// `key` of a check when it is a check's value, else null (left out: the reader says so).
json check_value(const json& c, const char* key) {
    const json& v = f::value(c, key);
    return is_check_value(v) ? v : json(nullptr);
}

std::vector<CheckRecord> checks_from(const json& j) {
    std::vector<CheckRecord> out;
    const json& list = f::value(j, "checks");
    if (!list.is_array()) {
        return out;
    }
    for (const json& c : list) {
        if (c.is_object()) {
            out.push_back({f::text(c, "kind"), check_value(c, "expected"), check_value(c, "actual"),
                           f::boolean(c, "pass", false)});
        }
    }
    return out;
}

/// Adds what a statement gave to `j`: `columns`, `rows` and `row_count` when it returned rows,
/// and `sql_error` (null when none).
void put_statement(json& j, const StatementRecord& s) {
    if (!s.columns.empty()) {
        j["columns"] = s.columns;
        json rows = json::array();
        for (const auto& row : s.rows) {
            json r = json::array();
            for (const auto& v : row) {
                r.push_back(v ? json(*v) : json(nullptr));
            }
            rows.push_back(std::move(r));
        }
        j["rows"] = std::move(rows);
        j["row_count"] = s.row_count;
    }
    j["sql_error"] = s.sql_error ? json{{"sqlstate", f::text_or_null(s.sql_error->sqlstate)},
                                        {"message", s.sql_error->message}}
                                 : json(nullptr);
}

StatementRecord statement_from(const json& j) {
    StatementRecord s;
    s.columns = f::texts(j, "columns");
    if (const json& rows = f::value(j, "rows"); rows.is_array()) {
        for (const json& row : rows) {
            std::vector<std::optional<std::string>> values;
            if (row.is_array()) {
                for (const json& v : row) {
                    values.push_back(v.is_string() ? std::optional(v.get<std::string>())
                                                   : std::nullopt);
                }
            }
            s.rows.push_back(std::move(values));
        }
    }
    s.row_count = f::integer(j, "row_count").value_or(0);
    if (const json& e = f::value(j, "sql_error"); e.is_object()) {
        s.sql_error = SqlError{f::text(e, "sqlstate"), f::text(e, "message")};
    }
    return s;
}

json explain_json(const ExplainSummary& e) {
    return {{"execution_ms", f::number_or_null(e.execution_ms)},
            {"planning_ms", f::number_or_null(e.planning_ms)},
            {"total_cost", f::number_or_null(e.total_cost)},
            {"node_types", e.node_types},
            {"shared_hit_blocks", e.shared_hit_blocks},
            {"shared_read_blocks", e.shared_read_blocks},
            {"heap_fetches", e.heap_fetches},
            {"rows", e.rows ? count_value(*e.rows) : json(nullptr)}};
}

ExplainSummary explain_from(const json& e) {
    ExplainSummary s;
    s.execution_ms = f::number(e, "execution_ms");
    s.planning_ms = f::number(e, "planning_ms");
    s.total_cost = f::number(e, "total_cost");
    s.node_types = f::texts(e, "node_types");
    s.shared_hit_blocks = f::integer(e, "shared_hit_blocks").value_or(0);
    s.shared_read_blocks = f::integer(e, "shared_read_blocks").value_or(0);
    s.heap_fetches = f::integer(e, "heap_fetches").value_or(0);
    s.rows = f::number(e, "rows");
    return s;
}

// --- each kind's own fields, written ---

void put_details(json& /*j*/, const std::monostate& /*none*/) {}

void put_details(json& j, const InitStep& s) {
    if (s.arguments) {
        j["arguments"] = *s.arguments;
    }
    if (s.exit_status) {
        j["exit_status"] = *s.exit_status;
    }
}

void put_details(json& j, const BenchStep& s) {
    if (s.arguments) {
        j["arguments"] = *s.arguments;
    }
    j["bench"] = s.document;
    if (s.exit_status) {
        j["exit_status"] = *s.exit_status;
    }
}

void put_details(json& j, const SqlStep& s) {
    j["session"] = s.session;
    if (s.statements) {
        j["statements"] = *s.statements;
        j["result"] = s.result ? json(*s.result) : json(nullptr);
    }
    if (s.last) {
        put_statement(j, *s.last);
    }
    if (!s.checks.empty()) {
        j["checks"] = checks_json(s.checks);
    }
    if (s.late_result) {
        const LateResult& late = *s.late_result;
        json l = {{"status", late.status},
                  {"waited_ms", late.waited_ms},
                  {"cancelled_because", f::text_or_null(late.cancelled_because)}};
        put_statement(l, late.statement);
        j["late_result"] = std::move(l);
    }
}

void put_details(json& j, const TimedSqlStep& s) {
    j["session"] = s.session;
    j["statement"] = s.statement;
    j["client_ms"] = f::number_or_null(s.client_ms);
    j["server_ms"] = f::number_or_null(s.server_ms);
    j["rows"] = f::integer_or_null(s.rows);
}

void put_details(json& j, const ExplainStep& s) {
    j["session"] = s.session;
    j["statement"] = s.statement;
    j["explain"] = s.explain ? explain_json(*s.explain) : json(nullptr);
    if (!s.checks.empty()) {
        j["checks"] = checks_json(s.checks);
    }
}

void put_details(json& j, const ShellStep& s) {
    j["command"] = s.command;
    j["exit_status"] = s.exit_status ? json(*s.exit_status) : json(nullptr);
}

void put_details(json& j, const ShutdownStep& s) {
    j["mode"] = s.mode;
}

void put_details(json& j, const SleepStep& s) {
    j["duration_ms"] = s.duration_ms;
}

void put_details(json& j, const OtherStep& s) {
    for (const auto& [k, v] : s.fields.items()) {
        if (!is_common_field(k)) {
            j[k] = v;
        }
    }
}

// --- each kind's own fields, read ---

InitStep init_from(const json& j) {
    return {f::optional_texts(j, "arguments"), small_integer(j, "exit_status")};
}

BenchStep bench_from(const json& j) {
    return {f::optional_texts(j, "arguments"), f::value(j, "bench"),
            small_integer(j, "exit_status")};
}

SqlStep sql_from(const json& j) {
    SqlStep s;
    s.session = f::text(j, "session");
    s.statements = f::optional_texts(j, "statements");
    s.result = f::optional_text(j, "result");
    if (j.contains("sql_error") || j.contains("columns")) {
        s.last = statement_from(j);
    }
    s.checks = checks_from(j);
    if (const json& l = f::value(j, "late_result"); l.is_object()) {
        s.late_result = LateResult{f::text(l, "status"), f::number(l, "waited_ms").value_or(0),
                                   f::text(l, "cancelled_because"), statement_from(l)};
    }
    return s;
}

TimedSqlStep timed_sql_from(const json& j) {
    return {f::text(j, "session"), f::text(j, "statement"), f::number(j, "client_ms"),
            f::number(j, "server_ms"), f::integer(j, "rows")};
}

ExplainStep explain_step_from(const json& j) {
    ExplainStep s;
    s.session = f::text(j, "session");
    s.statement = f::text(j, "statement");
    if (const json& e = f::value(j, "explain"); e.is_object()) {
        s.explain = explain_from(e);
    }
    s.checks = checks_from(j);
    return s;
}

/// The record of a step of `type` from the object's own fields (which it has).
StepDetails details_from(std::string_view type, const json& j) {
    if (type == "init") {
        return init_from(j);
    }
    if (type == "bench") {
        return bench_from(j);
    }
    if (type == "sql") {
        return sql_from(j);
    }
    if (type == "timed-sql") {
        return timed_sql_from(j);
    }
    if (type == "explain") {
        return explain_step_from(j);
    }
    if (type == "shell") {
        return ShellStep{f::text(j, "command"), small_integer(j, "exit_status")};
    }
    if (type == "restart" || type == "stop") {
        return ShutdownStep{f::text(j, "mode")};
    }
    if (type == "sleep") {
        return SleepStep{f::integer(j, "duration_ms").value_or(0)};
    }
    OtherStep other;
    for (const auto& [k, v] : j.items()) {
        if (!is_common_field(k)) {
            other.fields[k] = v;
        }
    }
    return other;
}

bool has_own_fields(const json& j) {
    for (const auto& [key, value] : j.items()) {
        if (!is_common_field(key)) {
            return true;
        }
    }
    return false;
}

json probes_json(const std::optional<ProbeValues>& probes) {
    if (!probes) {
        return nullptr;
    }
    json j = json::object();
    for (const ProbeValue& p : *probes) {
        j[p.name] = p.value;
    }
    return j;
}

/// {name: unit} of the probes whose unit was recorded; empty when none was.
json probe_units_json(const std::optional<ProbeValues>& probes) {
    json j = json::object();
    if (!probes) {
        return j;
    }
    for (const ProbeValue& p : *probes) {
        if (!p.unit.empty()) {
            j[p.name] = p.unit;
        }
    }
    return j;
}

/// The `probes` of a step object, each with its unit from `probe_units` (none when `probes` is
/// not an object; values that are not numbers are left out).
std::optional<ProbeValues> step_probes(const json& step) {
    const json& probes = f::value(step, "probes");
    if (!probes.is_object()) {
        return std::nullopt;
    }
    const json& units = f::value(step, "probe_units");
    ProbeValues out;
    for (const auto& [name, value] : probes.items()) {
        if (value.is_number()) {
            out.push_back({name, value.get<double>(), f::text(units, name.c_str())});
        }
    }
    return out;
}

json replication_json(const ReplicationProbe& r) {
    if (!r.lag) {
        return nullptr;
    }
    return {{"standbys", r.lag->standbys},
            {"write_lag_ms", f::number_or_null(r.lag->write_lag_ms)},
            {"flush_lag_ms", f::number_or_null(r.lag->flush_lag_ms)},
            {"replay_lag_ms", f::number_or_null(r.lag->replay_lag_ms)},
            {"bytes_behind", f::integer_or_null(r.lag->bytes_behind)}};
}

ReplicationProbe replication_from(const json& r) {
    if (!r.is_object()) {
        return {};
    }
    return {ReplicationLag{f::integer(r, "standbys").value_or(0), f::number(r, "write_lag_ms"),
                           f::number(r, "flush_lag_ms"), f::number(r, "replay_lag_ms"),
                           f::integer(r, "bytes_behind")}};
}

} // namespace

const char* step_status_name(StepStatus s) {
    return util::name_of(k_step_names, s);
}

std::optional<StepStatus> parse_step_status(std::string_view name) {
    return util::value_named(k_step_names, name);
}

const std::vector<CheckRecord>& StepRecord::checks() const {
    static const std::vector<CheckRecord> k_none;
    if (const auto* sql = as<SqlStep>()) {
        return sql->checks;
    }
    if (const auto* explain = as<ExplainStep>()) {
        return explain->checks;
    }
    return k_none;
}

json to_json(const StepRecord& s) {
    json j;
    j["index"] = s.index;
    j["key"] = s.key;
    j["type"] = s.type;
    j["server"] = s.server;
    j["status"] = step_status_name(s.status);
    if (s.status == StepStatus::skipped) {
        j["skip_reason"] = s.skip_reason;
    }
    j["error"] = f::text_or_null(s.error);
    j["elapsed_ms"] = f::number_or_null(s.elapsed_ms);
    j["log"] = f::text_or_null(s.log);
    j["probes"] = probes_json(s.probes);
    if (auto units = probe_units_json(s.probes); !units.empty()) {
        j["probe_units"] = std::move(units);
    }
    if (!s.probe_notes.empty()) {
        j["probe_notes"] = s.probe_notes;
    }
    if (s.replication) {
        j["replication"] = replication_json(*s.replication);
    }
    std::visit([&j](const auto& details) { put_details(j, details); }, s.details);
    return j;
}

Result<StepRecord> step_from_json(const json& j, std::size_t position) {
    if (!j.is_object()) {
        return make_error(fmt::format("steps[{}] is not an object", position));
    }
    if (auto types = f::check_types(j, k_common_fields); !types) {
        return make_error(fmt::format("steps[{}]: {}", position, types.error().message));
    }
    StepRecord s;
    s.index = f::unsigned_integer(j, "index").value_or(position);
    s.key = f::text(j, "key");
    s.type = f::text(j, "type");
    s.server = f::text(j, "server");
    const auto status = parse_step_status(f::text(j, "status"));
    if (!status) {
        return make_error(fmt::format("steps[{}]: unknown status {}", position,
                                      j.contains("status") ? j["status"].dump() : "(none)"));
    }
    s.status = *status;
    s.skip_reason = f::text(j, "skip_reason");
    s.error = f::text(j, "error");
    s.elapsed_ms = f::number(j, "elapsed_ms");
    s.log = f::text(j, "log");
    s.probes = step_probes(j);
    s.probe_notes = f::texts(j, "probe_notes");
    if (j.contains("replication")) {
        s.replication = replication_from(j["replication"]);
    }
    if (has_own_fields(j)) {
        s.details = details_from(s.type, j);
    }
    return s;
}

} // namespace pglab::lab::store
