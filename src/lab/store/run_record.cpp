// lab/store: RunRecord to and from its results.jsonl object.
#include "lab/store/run_record.hpp"

#include "lab/store/json_fields.hpp"
#include "util/named_values.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

namespace pglab::lab::store {

namespace {

using nlohmann::json;

constexpr std::array<std::pair<RunStatus, const char*>, 3> k_run_names = {{
    {RunStatus::ok, "ok"},
    {RunStatus::failed, "failed"},
    {RunStatus::timed_out, "timed-out"},
}};

using fields::text_or_null;
using K = fields::Kind;

/// The types of a line's fields: a line with one of another type is not read.
constexpr fields::FieldType k_run_fields[] = {
    {"experiment", K::text},
    {"values", K::object},
    {"label", K::text},
    {"repetition", K::unsigned_integer},
    {"warmup", K::boolean},
    {"round", K::unsigned_integer},
    {"seed", K::unsigned_integer},
    {"started_at", K::text},
    {"start_time_us", K::integer},
    {"server", K::object},
    {"servers", K::array},
    {"steps", K::array},
    {"recoveries", K::array},
    {"settle", K::object},
    {"beside", K::array},
    {"error", K::object, true},
    {"timings", K::object},
};

constexpr fields::FieldType k_timing_fields[] = {
    {"total_ms", K::number},    {"server_ms", K::number}, {"steps_ms", K::number},
    {"overhead_ms", K::number}, {"restarts", K::integer},
};

json server_json(const ServerRecord& s) {
    json j = {{"name", s.seen.name},
              {"version", text_or_null(s.seen.version)},
              {"version_num", s.seen.version_num == 0 ? json(nullptr) : json(s.seen.version_num)},
              {"bin_dir", text_or_null(s.seen.bin_dir)},
              {"cluster", s.cluster},
              {"settings", s.settings},
              {"requested", s.requested}};
    if (s.memory_limit_bytes) {
        j["memory_limit_bytes"] = *s.memory_limit_bytes;
    }
    if (s.sync_delay_us) {
        j["sync_delay_us"] = *s.sync_delay_us;
    }
    return j;
}

ServerSeen seen_from(const json& s) {
    return {fields::text(s, "name"), fields::text(s, "version"),
            fields::integer(s, "version_num").value_or(0), fields::text(s, "bin_dir")};
}

std::map<std::string, std::string> texts_by_name(const json& j) {
    std::map<std::string, std::string> out;
    if (j.is_object()) {
        for (const auto& [name, value] : j.items()) {
            if (value.is_string()) {
                out[name] = value.get<std::string>();
            }
        }
    }
    return out;
}

ServerRecord server_from(const json& s) {
    ServerRecord r;
    r.seen = seen_from(s);
    r.cluster = fields::integer(s, "cluster").value_or(0);
    r.memory_limit_bytes = fields::integer(s, "memory_limit_bytes");
    r.sync_delay_us = fields::integer(s, "sync_delay_us");
    r.settings = texts_by_name(fields::value(s, "settings"));
    r.requested = texts_by_name(fields::value(s, "requested"));
    return r;
}

RunTimings timings_from(const json& t) {
    RunTimings timings;
    timings.total_ms = fields::number(t, "total_ms").value_or(0);
    timings.server_ms = fields::number(t, "server_ms").value_or(0);
    timings.steps_ms = fields::number(t, "steps_ms").value_or(0);
    timings.overhead_ms = fields::number(t, "overhead_ms").value_or(0);
    timings.restarts = static_cast<int>(fields::integer(t, "restarts").value_or(0));
    return timings;
}

/// The run's failure from the line's `error` and the status it states, its steps read.
void add_failure(const json& error, RunStatus status, RunRecord& r) {
    if (error.is_object()) {
        r.failure =
            RunFailure{fields::unsigned_integer(error, "step"), fields::text(error, "step_key"),
                       fields::text(error, "reason"), false};
    } else if (status != RunStatus::ok) {
        r.failure = RunFailure{std::nullopt, "", "", false}; // no reason recorded
    }
    // A line that states a failure its steps do not show (a run timeout between steps, as
    // older pglab wrote it) keeps the failure, as one of the run's.
    if (status != RunStatus::ok && r.status() == RunStatus::ok) {
        r.failure->step.reset();
    }
    if (status == RunStatus::timed_out && r.status() != RunStatus::timed_out) {
        r.failure->timed_out = true;
    }
}

} // namespace

const char* run_status_name(RunStatus s) {
    return util::name_of(k_run_names, s);
}

std::optional<RunStatus> parse_run_status(std::string_view name) {
    return util::value_named(k_run_names, name);
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
    if (r.settle) {
        j["settle"] = {{"checkpoint_ms", r.settle->checkpoint_ms},
                       {"waited_ms", r.settle->waited_ms},
                       {"settled", r.settle->settled},
                       {"busy", text_or_null(r.settle->busy)}};
        if (!r.settle->after.empty()) {
            j["settle"]["after"] = r.settle->after;
        }
    }
    if (!r.beside.empty()) {
        j["beside"] = r.beside;
    }
    j["server"] = server_json(r.server);
    if (!r.servers.empty()) {
        json list = json::array();
        for (const ServerSeen& s : r.servers) {
            list.push_back({{"name", s.name},
                            {"version", s.version},
                            {"version_num", s.version_num},
                            {"bin_dir", text_or_null(s.bin_dir)}});
        }
        j["servers"] = std::move(list);
    }
    j["steps"] = json::array();
    for (const auto& s : r.steps) {
        j["steps"].push_back(to_json(s));
    }
    j["timings"] = {{"total_ms", r.timings.total_ms},
                    {"server_ms", r.timings.server_ms},
                    {"steps_ms", r.timings.steps_ms},
                    {"overhead_ms", r.timings.overhead_ms},
                    {"restarts", r.timings.restarts}};
    return j;
}

Result<RunRecord> run_record_from_json(const json& j) {
    if (!j.is_object()) {
        return make_error("not a JSON object");
    }
    const auto run = fields::unsigned_integer(j, "run");
    const auto cell = fields::unsigned_integer(j, "cell");
    if (!run || !cell) {
        return make_error(fmt::format("no \"{}\" number", !run ? "run" : "cell"));
    }
    PGLAB_TRY(fields::check_types(j, k_run_fields));
    if (const auto it = j.find("timings"); it != j.end()) {
        PGLAB_TRY(fields::check_types(*it, k_timing_fields));
    }
    RunRecord r;
    r.experiment = fields::text(j, "experiment");
    r.run = *run;
    r.cell = *cell;
    if (const auto it = j.find("values"); it != j.end() && it->is_object()) {
        r.values = *it;
    }
    r.label = fields::text(j, "label");
    r.repetition =
        static_cast<std::uint32_t>(fields::unsigned_integer(j, "repetition").value_or(0));
    r.warmup = fields::boolean(j, "warmup", false);
    r.round = static_cast<std::uint32_t>(fields::unsigned_integer(j, "round").value_or(0));
    r.seed = fields::unsigned_integer(j, "seed").value_or(0);
    r.started_at = fields::text(j, "started_at");
    r.start_time_us = fields::integer(j, "start_time_us").value_or(0);
    r.server = server_from(fields::value(j, "server"));
    if (const auto it = j.find("servers"); it != j.end()) {
        for (const json& s : *it) {
            r.servers.push_back(seen_from(s));
        }
    }
    r.timings = timings_from(fields::value(j, "timings"));
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
    if (const auto it = j.find("settle"); it != j.end() && it->is_object()) {
        SettleRecord settle;
        settle.checkpoint_ms = fields::number(*it, "checkpoint_ms").value_or(0);
        settle.waited_ms = fields::number(*it, "waited_ms").value_or(0);
        settle.settled = fields::boolean(*it, "settled", false);
        settle.busy = fields::text(*it, "busy");
        settle.after = fields::texts(*it, "after");
        r.settle = std::move(settle);
    }
    if (const auto it = j.find("beside"); it != j.end() && it->is_array()) {
        for (const json& b : *it) {
            if (b.is_string()) {
                r.beside.push_back(b.get<std::string>());
            }
        }
    }
    const auto status = parse_run_status(fields::text(j, "status"));
    if (!status) {
        return make_error(
            fmt::format("unknown status {}", j.contains("status") ? j["status"].dump() : "(none)"));
    }
    add_failure(fields::value(j, "error"), *status, r);
    return r;
}

} // namespace pglab::lab::store
