// lab/store: PlanRecord to and from plan.json.
#include "lab/store/plan_record.hpp"

#include "lab/store/claim_json.hpp"
#include "lab/store/json_fields.hpp"
#include "util/text_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <variant>

namespace pglab::lab::store {

namespace {

using nlohmann::json;
namespace f = fields;

json machine_json(const util::MachineInfo& m) {
    return {{"cpu_model", f::text_or_null(m.cpu_model)},
            {"cores", f::count_or_null(m.cores)},
            {"memory_bytes", f::count_or_null(m.memory_bytes)},
            {"kernel", f::text_or_null(m.kernel)}};
}

std::optional<util::MachineInfo> machine_from(const json& j) {
    if (!j.is_object()) {
        return std::nullopt;
    }
    util::MachineInfo m;
    m.cpu_model = f::text(j, "cpu_model");
    m.cores = static_cast<int>(f::integer(j, "cores").value_or(0));
    m.memory_bytes = f::integer(j, "memory_bytes").value_or(0);
    m.kernel = f::text(j, "kernel");
    return m;
}

/// The objects of the array `j[key]`, each read by `read(object, position)`.
template <typename T, typename Read>
std::vector<T> list_from(const json& j, const char* key, Read read) {
    std::vector<T> out;
    const json& list = f::value(j, key);
    if (!list.is_array()) {
        return out;
    }
    for (const auto& item : list) {
        if (item.is_object()) {
            out.push_back(read(item, out.size()));
        }
    }
    return out;
}

std::size_t index_of(const json& j, const char* key, std::size_t fallback) {
    const auto v = f::integer(j, key);
    return v && *v >= 0 ? static_cast<std::size_t>(*v) : fallback;
}

std::uint32_t small_count(const json& j, const char* key) {
    const auto v = f::integer(j, key);
    return v && *v >= 0 ? static_cast<std::uint32_t>(*v) : 0;
}

/// A matrix value as JSON, its TOML type kept (integers, floats, booleans, strings).
json scalar_json(const experiment::Scalar& s) {
    return std::visit([](const auto& v) { return json(v); }, s.value);
}

/// The matrix value of a JSON scalar; nullopt for null, an array or an object.
std::optional<experiment::Scalar> scalar_from_json(const json& j) {
    if (j.is_number_integer()) {
        return experiment::Scalar{j.get<std::int64_t>(), {}};
    }
    if (j.is_number()) {
        return experiment::Scalar{j.get<double>(), {}};
    }
    if (j.is_boolean()) {
        return experiment::Scalar{j.get<bool>(), {}};
    }
    if (j.is_string()) {
        return experiment::Scalar{j.get<std::string>(), {}};
    }
    return std::nullopt;
}

} // namespace

json bindings_json(const std::vector<experiment::Binding>& bindings) {
    json values = json::object();
    for (const auto& b : bindings) {
        values[b.name] = scalar_json(b.value);
    }
    return values;
}

std::vector<experiment::Binding> bindings_from(const json& values,
                                               const std::vector<std::string>& order) {
    std::vector<experiment::Binding> out;
    if (!values.is_object()) {
        return out;
    }
    const auto add = [&](const std::string& name) {
        const auto it = values.find(name);
        if (it == values.end()) {
            return;
        }
        if (auto scalar = scalar_from_json(*it)) {
            out.push_back({name, std::move(*scalar)});
        }
    };
    for (const auto& name : order) {
        add(name);
    }
    for (const auto& item : values.items()) { // any the order does not name, by name
        if (std::find(order.begin(), order.end(), item.key()) == order.end()) {
            add(item.key());
        }
    }
    return out;
}

namespace {

json lists_json(const PlanRecord& p, json j) {
    j["variables"] = p.variables;
    j["servers"] = json::array();
    for (const auto& s : p.servers) {
        json server = {{"name", s.name},
                       {"version", s.version},
                       {"bin_dir", s.bin_dir},
                       {"existing", s.existing},
                       {"initdb_options", s.initdb_options}};
        if (!s.source.empty()) { // plans of servers not built from source keep their form
            server["source"] = s.source;
            server["configure"] = s.configure;
        }
        j["servers"].push_back(std::move(server));
    }
    j["steps"] = json::array();
    for (const auto& s : p.steps) {
        json step = {{"index", s.index}, {"key", s.key},         {"name", s.name},
                     {"type", s.type},   {"measure", s.measure}, {"once", s.once}};
        if (!s.deviation.empty()) {
            step["deviation"] = s.deviation;
        }
        j["steps"].push_back(std::move(step));
    }
    j["cells"] = json::array();
    for (const auto& c : p.cells) {
        j["cells"].push_back({{"index", c.index},
                              {"label", c.label},
                              {"server", c.server},
                              {"values", bindings_json(c.bindings)}});
    }
    j["runs"] = json::array();
    for (const auto& r : p.runs) {
        j["runs"].push_back({{"run", r.run},
                             {"cell", r.cell},
                             {"repetition", r.repetition},
                             {"warmup", r.warmup},
                             {"round", r.round}});
    }
    if (p.claims) {
        j["question"] = p.question.value_or("");
        j["claims"] = json::array();
        for (const auto& c : *p.claims) {
            j["claims"].push_back(claim_json(c));
        }
    }
    return j;
}

void read_lists(const json& j, PlanRecord& p) {
    p.variables = f::texts(j, "variables");
    p.servers = list_from<PlanServer>(j, "servers", [](const json& s, std::size_t) {
        return PlanServer{f::text(s, "name"),
                          f::text(s, "version"),
                          f::text(s, "bin_dir"),
                          f::boolean(s, "existing", false),
                          f::texts(s, "initdb_options"),
                          f::text(s, "source"),
                          f::texts(s, "configure")};
    });
    p.steps = list_from<PlanStep>(j, "steps", [](const json& s, std::size_t i) {
        return PlanStep{index_of(s, "index", i),
                        f::text(s, "key"),
                        f::text(s, "name"),
                        f::text(s, "type"),
                        f::boolean(s, "measure", false),
                        f::boolean(s, "once", false),
                        f::text(s, "deviation")};
    });
    p.cells = list_from<Cell>(j, "cells", [&](const json& c, std::size_t i) {
        Cell cell;
        cell.index = index_of(c, "index", i);
        cell.bindings = bindings_from(f::value(c, "values"), p.variables);
        cell.server = f::text(c, "server");
        cell.label = f::text(c, "label");
        return cell;
    });
    p.runs = list_from<PlanRun>(j, "runs", [](const json& r, std::size_t i) {
        return PlanRun{index_of(r, "run", i), index_of(r, "cell", 0), small_count(r, "repetition"),
                       f::boolean(r, "warmup", false), small_count(r, "round")};
    });
    if (const json& claims = f::value(j, "claims"); claims.is_array()) {
        p.question = f::text(j, "question");
        p.claims.emplace();
        for (const json& c : claims) {
            if (auto claim = claim_from_json(c)) {
                p.claims->push_back(std::move(*claim));
            }
        }
    }
}

} // namespace

json to_json(const PlanRecord& p) {
    json j;
    j["version"] = p.version;
    j["experiment"] = p.experiment;
    j["description"] = p.description;
    j["file"] = p.file;
    j["pglab_version"] = p.pglab_version;
    if (!p.pglab_commit.empty()) {
        j["pglab_commit"] = p.pglab_commit;
    }
    j["created_at"] = p.created_at;
    if (p.machine) {
        j["machine"] = machine_json(*p.machine);
    }
    if (p.seed) {
        j["seed"] = *p.seed;
    }
    j["seed_source"] = p.seed_source;
    j["order"] = p.order;
    if (p.repeat) {
        j["repeat"] = *p.repeat;
    }
    if (p.repeat_max) {
        j["repeat_max"] = *p.repeat_max;
        j["repeat_budget_ms"] = p.repeat_budget_ms.value_or(0);
    }
    if (p.warmup) {
        j["warmup"] = *p.warmup;
    }
    j["quick"] = p.quick;
    j["on_error"] = p.on_error;
    return lists_json(p, std::move(j));
}

Result<PlanRecord> plan_record_from_json(const json& j) {
    if (!j.is_object()) {
        return make_error("not a JSON object");
    }
    PlanRecord p;
    p.version = f::text(j, "version");
    p.experiment = f::text(j, "experiment");
    p.description = f::text(j, "description");
    p.file = f::text(j, "file");
    p.pglab_version = f::text(j, "pglab_version");
    p.pglab_commit = f::text(j, "pglab_commit");
    p.created_at = f::text(j, "created_at");
    p.machine = machine_from(f::value(j, "machine"));
    p.seed = f::unsigned_integer(j, "seed");
    p.seed_source = f::text(j, "seed_source");
    p.order = f::text(j, "order");
    p.repeat = f::integer(j, "repeat");
    p.repeat_max = f::integer(j, "repeat_max");
    p.repeat_budget_ms = f::integer(j, "repeat_budget_ms");
    p.warmup = f::integer(j, "warmup");
    p.quick = f::boolean(j, "quick", false);
    p.on_error = f::text(j, "on_error");
    read_lists(j, p);
    return p;
}

Result<PlanRecord> read_plan(const std::filesystem::path& path) {
    PGLAB_TRY_ASSIGN(const std::string text, util::read_text_file(path));
    auto plan = plan_record_from_json(json::parse(text, nullptr, false));
    if (!plan) {
        return make_error(fmt::format("\"{}\" is not a pglab plan", path.string()));
    }
    return plan;
}

const Cell* find_cell(const std::vector<Cell>& cells, std::int64_t index) {
    for (const auto& c : cells) {
        if (static_cast<std::int64_t>(c.index) == index) {
            return &c;
        }
    }
    return nullptr;
}

} // namespace pglab::lab::store
