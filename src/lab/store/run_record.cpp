// lab/store: RunRecord to and from its results.jsonl object.
#include "lab/store/run_record.hpp"

#include "lab/store/json_fields.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

namespace pglab::lab::store {

namespace {

using nlohmann::json;

constexpr std::array<std::pair<StepStatus, const char*>, 6> k_step_names = {{
    {StepStatus::ok, "ok"},
    {StepStatus::failed, "failed"},
    {StepStatus::timed_out, "timed-out"},
    {StepStatus::interrupted, "interrupted"},
    {StepStatus::skipped, "skipped"},
    {StepStatus::not_run, "not-run"},
}};

constexpr std::array<std::pair<RunStatus, const char*>, 3> k_run_names = {{
    {RunStatus::ok, "ok"},
    {RunStatus::failed, "failed"},
    {RunStatus::timed_out, "timed-out"},
}};

using fields::text_or_null;

/// The fields every step object has; the others are the type's own.
bool is_common_step_field(const std::string& key) {
    static constexpr std::array<const char*, 12> k_common = {
        "index", "key",        "type", "server", "status",      "skip_reason",
        "error", "elapsed_ms", "log",  "probes", "probe_units", "replication"};
    for (const char* k : k_common) {
        if (key == k) {
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

json step_json(const StepRecord& s) {
    json j;
    j["index"] = s.index;
    j["key"] = s.key;
    j["type"] = s.type;
    j["server"] = s.server;
    j["status"] = step_status_name(s.status);
    if (s.status == StepStatus::skipped) {
        j["skip_reason"] = s.skip_reason;
    }
    j["error"] = text_or_null(s.error);
    j["elapsed_ms"] = s.elapsed_ms ? json(*s.elapsed_ms) : json(nullptr);
    j["log"] = text_or_null(s.log);
    j["probes"] = probes_json(s.probes);
    if (auto units = probe_units_json(s.probes); !units.empty()) {
        j["probe_units"] = std::move(units);
    }
    if (s.replication) {
        j["replication"] = *s.replication;
    }
    for (const auto& [k, v] : s.fields.items()) {
        j[k] = v;
    }
    return j;
}

Result<StepRecord> step_from_json(const json& j, std::size_t position) {
    if (!j.is_object()) {
        return make_error(fmt::format("steps[{}] is not an object", position));
    }
    StepRecord s;
    s.index = j.value("index", position);
    s.key = fields::text(j, "key");
    s.type = fields::text(j, "type");
    s.server = fields::text(j, "server");
    const auto status = parse_step_status(fields::text(j, "status"));
    if (!status) {
        return make_error(fmt::format("steps[{}]: unknown status {}", position,
                                      j.contains("status") ? j["status"].dump() : "(none)"));
    }
    s.status = *status;
    s.skip_reason = fields::text(j, "skip_reason");
    s.error = fields::text(j, "error");
    if (const auto it = j.find("elapsed_ms"); it != j.end() && it->is_number()) {
        s.elapsed_ms = it->get<double>();
    }
    s.log = fields::text(j, "log");
    s.probes = step_probes(j);
    if (const auto it = j.find("replication"); it != j.end()) {
        s.replication = *it;
    }
    for (const auto& [k, v] : j.items()) {
        if (!is_common_step_field(k)) {
            s.fields[k] = v;
        }
    }
    return s;
}

} // namespace

const char* step_status_name(StepStatus s) {
    for (const auto& [v, name] : k_step_names) {
        if (v == s) {
            return name;
        }
    }
    return "?";
}

const char* run_status_name(RunStatus s) {
    for (const auto& [v, name] : k_run_names) {
        if (v == s) {
            return name;
        }
    }
    return "?";
}

std::optional<StepStatus> parse_step_status(std::string_view name) {
    for (const auto& [v, n] : k_step_names) {
        if (name == n) {
            return v;
        }
    }
    return std::nullopt;
}

std::optional<RunStatus> parse_run_status(std::string_view name) {
    for (const auto& [v, n] : k_run_names) {
        if (name == n) {
            return v;
        }
    }
    return std::nullopt;
}

RunStatus RunRecord::status() const {
    if (failure && failure->timed_out) {
        return RunStatus::timed_out;
    }
    bool failed = failure.has_value() && !failure->step.has_value();
    for (const auto& s : steps) {
        if (s.status == StepStatus::timed_out) {
            return RunStatus::timed_out;
        }
        failed = failed || s.status == StepStatus::failed || s.status == StepStatus::interrupted;
    }
    return failed ? RunStatus::failed : RunStatus::ok;
}

json to_json(const RunRecord& r) {
    json j;
    j["version"] = "pglab.run/1";
    j["experiment"] = r.experiment;
    j["run"] = r.run;
    j["cell"] = r.cell;
    j["values"] = r.values;
    j["label"] = r.label;
    j["repetition"] = r.repetition;
    j["warmup"] = r.warmup;
    j["round"] = r.round;
    j["seed"] = r.seed;
    const RunStatus status = r.status();
    j["status"] = run_status_name(status);
    if (status == RunStatus::ok || !r.failure) {
        j["error"] = nullptr;
    } else {
        j["error"] = {{"step", r.failure->step ? json(*r.failure->step) : json(nullptr)},
                      {"step_key", text_or_null(r.failure->step_key)},
                      {"reason", r.failure->reason}};
    }
    j["started_at"] = r.started_at;
    j["start_time_us"] = r.start_time_us;
    if (!r.recoveries.empty()) {
        json list = json::array();
        for (const auto& rec : r.recoveries) {
            list.push_back(
                {{"server", rec.server}, {"reason", rec.reason}, {"log_tail", rec.log_tail}});
        }
        j["recoveries"] = list;
    }
    j["server"] = r.server;
    if (r.servers.is_array() && !r.servers.empty()) {
        j["servers"] = r.servers;
    }
    j["steps"] = json::array();
    for (const auto& s : r.steps) {
        j["steps"].push_back(step_json(s));
    }
    j["timings"] = {{"total_ms", r.timings.total_ms},
                    {"server_ms", r.timings.server_ms},
                    {"steps_ms", r.timings.steps_ms},
                    {"overhead_ms", r.timings.overhead_ms},
                    {"restarts", r.timings.restarts}};
    return j;
}

namespace {

/// run_record_from_json() without the guard against wrong-typed fields.
Result<RunRecord> read_run(const json& j) {
    if (!j.is_object()) {
        return make_error("not a JSON object");
    }
    for (const char* key : {"run", "cell"}) {
        if (!j.contains(key) || !j[key].is_number_unsigned()) {
            return make_error(fmt::format("no \"{}\" number", key));
        }
    }
    RunRecord r;
    r.experiment = fields::text(j, "experiment");
    r.run = j["run"].get<std::size_t>();
    r.cell = j["cell"].get<std::size_t>();
    if (const auto it = j.find("values"); it != j.end() && it->is_object()) {
        r.values = *it;
    }
    r.label = fields::text(j, "label");
    r.repetition = j.value("repetition", 0U);
    r.warmup = j.value("warmup", false);
    r.round = j.value("round", 0U);
    r.seed = j.value("seed", std::uint64_t{0});
    r.started_at = fields::text(j, "started_at");
    r.start_time_us = j.value("start_time_us", std::int64_t{0});
    if (const auto it = j.find("server"); it != j.end() && it->is_object()) {
        r.server = *it;
    }
    if (const auto it = j.find("servers"); it != j.end() && it->is_array()) {
        r.servers = *it;
    }
    if (const auto it = j.find("timings"); it != j.end() && it->is_object()) {
        r.timings.total_ms = it->value("total_ms", 0.0);
        r.timings.server_ms = it->value("server_ms", 0.0);
        r.timings.steps_ms = it->value("steps_ms", 0.0);
        r.timings.overhead_ms = it->value("overhead_ms", 0.0);
        r.timings.restarts = it->value("restarts", 0);
    }
    if (const auto it = j.find("steps"); it != j.end() && it->is_array()) {
        for (std::size_t i = 0; i < it->size(); ++i) {
            PGLAB_TRY_ASSIGN(StepRecord s, step_from_json((*it)[i], i));
            r.steps.push_back(std::move(s));
        }
    }
    if (const auto it = j.find("recoveries"); it != j.end() && it->is_array()) {
        for (const auto& rec : *it) {
            r.recoveries.push_back({fields::text(rec, "server"), fields::text(rec, "reason"),
                                    fields::text(rec, "log_tail")});
        }
    }
    const auto status = parse_run_status(fields::text(j, "status"));
    if (!status) {
        return make_error(
            fmt::format("unknown status {}", j.contains("status") ? j["status"].dump() : "(none)"));
    }
    if (const auto it = j.find("error"); it != j.end() && it->is_object()) {
        RunFailure f;
        if (const auto st = it->find("step"); st != it->end() && st->is_number_unsigned()) {
            f.step = st->get<std::size_t>();
        }
        f.step_key = fields::text(*it, "step_key");
        f.reason = fields::text(*it, "reason");
        r.failure = std::move(f);
    } else if (*status != RunStatus::ok) {
        r.failure = RunFailure{std::nullopt, "", "(no reason recorded)"};
    }
    // A line that states a failure its steps do not show (a run timeout between steps, as
    // older pglab wrote it) keeps the failure, as one of the run's.
    if (*status != RunStatus::ok && r.status() == RunStatus::ok) {
        r.failure->step.reset();
    }
    if (*status == RunStatus::timed_out && r.status() != RunStatus::timed_out) {
        r.failure->timed_out = true;
    }
    return r;
}

} // namespace

std::optional<ProbeValues> step_probes(const json& step) {
    const auto it = step.find("probes");
    if (it == step.end() || !it->is_object()) {
        return std::nullopt;
    }
    const auto units = step.find("probe_units");
    std::vector<ProbeValue> out;
    for (const auto& [name, value] : it->items()) {
        if (!value.is_number()) {
            continue;
        }
        ProbeValue p{name, value.get<double>(), {}};
        if (units != step.end() && units->is_object()) {
            if (const auto u = units->find(name); u != units->end() && u->is_string()) {
                p.unit = u->get<std::string>();
            }
        }
        out.push_back(std::move(p));
    }
    return out;
}

Result<RunRecord> run_record_from_json(const json& j) {
    try {
        return read_run(j);
    } catch (const json::exception& e) {
        // json::value() throws on a field of another type than its default's.
        return make_error(fmt::format("a field has the wrong type ({})", e.what()));
    }
}

} // namespace pglab::lab::store
