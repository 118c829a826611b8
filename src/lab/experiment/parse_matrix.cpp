// lab/experiment: the `[matrix]` section: variables (built-in parameters, `settings.*`, `vars.*`,
// `params.*`) with their lists of values, in file order, and the optional `filter`.
#include "lab/experiment/duration.hpp"
#include "lab/experiment/parse_parts.hpp"
#include "lab/experiment/suggest.hpp"
#include "lab/experiment/toml_reader.hpp"

#include <algorithm>
#include <cmath>

namespace pglab::lab::experiment {
namespace {

struct Builtin {
    const char* name;
    VariableKind kind;
};

constexpr Builtin k_builtins[] = {
    {"clients", VariableKind::clients},   {"threads", VariableKind::threads},
    {"scale", VariableKind::scale},       {"rate", VariableKind::rate},
    {"duration", VariableKind::duration}, {"transactions", VariableKind::transactions},
    {"server", VariableKind::server},
};

std::vector<std::string> known_keys() {
    std::vector<std::string> keys;
    for (const auto& b : k_builtins) {
        keys.emplace_back(b.name);
    }
    for (const char* k : {"settings", "vars", "params", "filter"}) {
        keys.emplace_back(k);
    }
    return keys;
}

/// One `key = values` found under [matrix], before validation.
struct Entry {
    std::string name; ///< full: "settings.work_mem"
    VariableKind kind;
    std::string key;
    const toml::node* values;
    SourcePos pos;
};

/// Checks and normalises one value of a built-in parameter. Durations become whole seconds.
bool check_value(const MatrixVariable& var, Scalar& v, ParseContext& ctx) {
    const std::string where = "value of \"" + var.name + "\" in [matrix]";
    switch (var.kind) {
    case VariableKind::clients:
    case VariableKind::threads:
    case VariableKind::scale:
    case VariableKind::transactions:
        if (!v.is_integer() || std::get<std::int64_t>(v.value) < 1) {
            ctx.diag.add(v.pos, "invalid " + where + ": " + v.text(),
                         "\"" + var.name + "\" takes positive integers: " + var.name
                             + " = [1, 2, 4]");
            return false;
        }
        return true;
    case VariableKind::rate:
        if (!v.is_number() || !(v.as_double() > 0) || !std::isfinite(v.as_double())) {
            ctx.diag.add(v.pos, "invalid " + where + ": " + v.text(),
                         "\"rate\" takes transactions per second above 0: rate = [100, 500.5]");
            return false;
        }
        return true;
    case VariableKind::duration: {
        std::optional<std::int64_t> ms;
        if (v.is_integer()) {
            ms = std::get<std::int64_t>(v.value) * 1000;
        } else if (v.is_string()) {
            ms = parse_duration_ms(std::get<std::string>(v.value));
        }
        if (!ms || *ms < 1000 || *ms % 1000 != 0) {
            ctx.diag.add(v.pos, "invalid " + where + ": " + v.text(),
                         "\"duration\" takes whole seconds, as a number or with a unit: "
                         "duration = [10, \"2min\"]");
            return false;
        }
        v.value = *ms / 1000;
        return true;
    }
    case VariableKind::server:
        if (!v.is_string()) {
            ctx.diag.add(v.pos, "invalid " + where + ": " + v.text(),
                         "\"server\" takes names of [servers.NAME] tables: server = [\"pg16\", "
                         "\"pg17\"]");
            return false;
        }
        return true;
    default:
        return true;
    }
}

void add_variable(const Entry& e, ParseContext& ctx, ExperimentSpec& spec) {
    MatrixVariable var;
    var.name = e.name;
    var.kind = e.kind;
    var.key = e.key;
    var.pos = e.pos;
    if (spec.matrix.find(var.name) != nullptr) {
        ctx.diag.add(e.pos, "duplicate matrix variable \"" + var.name + "\"",
                     "give each variable one list of values");
        return;
    }
    const auto add_value = [&](const toml::node& n) {
        auto sc = to_scalar(n, ctx.file, "a value of \"" + var.name + "\" in [matrix]", ctx.diag);
        if (sc && check_value(var, *sc, ctx)) {
            for (const auto& existing : var.values) {
                if (existing == *sc) {
                    ctx.diag.add(sc->pos,
                                 "duplicate value " + sc->text() + " for \"" + var.name + "\"",
                                 "list each value once; use \"repeat\" for repetitions");
                    return;
                }
            }
            var.values.push_back(*sc);
        }
    };
    if (const auto* arr = e.values->as_array()) {
        if (arr->empty()) {
            ctx.diag.add(e.pos, "matrix variable \"" + var.name + "\" has no values",
                         "give at least one value: " + var.name + " = [1, 2]");
            return;
        }
        for (const auto& n : *arr) {
            add_value(n);
        }
    } else {
        add_value(*e.values);
    }
    if (!var.values.empty()) {
        spec.matrix.variables.push_back(std::move(var));
    }
}

/// Entries under `settings`, `vars` or `params` (a table of NAME = values).
void collect_group(const std::string& group, VariableKind kind, const toml::node& node,
                   const SourcePos& pos, ParseContext& ctx, std::vector<Entry>& out) {
    const auto* t = node.as_table();
    if (t == nullptr) {
        ctx.diag.add(pos,
                     "\"" + group + "\" in [matrix] must be a table, not a " + toml_type_name(node),
                     "write " + group + ".NAME = [values], for example " + group
                         + (group == "settings" ? ".shared_buffers = [\"128MB\", \"1GB\"]"
                                                : ".nrows = [1000, 10000]"));
        return;
    }
    for (const auto& [k, v] : *t) {
        const SourcePos kp = pos_of(k.source(), ctx.file);
        const std::string name(k.str());
        // settings.auto_explain.log_min_duration: dotted custom settings nest one level more
        if (kind == VariableKind::setting && v.is_table()) {
            for (const auto& [k2, v2] : *v.as_table()) {
                const std::string full = name + "." + std::string(k2.str());
                out.push_back(
                    Entry{group + "." + full, kind, full, &v2, pos_of(k2.source(), ctx.file)});
            }
            continue;
        }
        if (kind != VariableKind::setting) {
            check_name(name, group == "vars" ? "script variable" : "parameter", kp, ctx);
        }
        out.push_back(Entry{group + "." + name, kind, name, &v, kp});
    }
}

/// `filter = "..."`: a condition on the cell's variables, parsed.
void read_filter(const toml::node& filter, ParseContext& ctx, ExperimentSpec& spec) {
    const auto* s = filter.as_string();
    spec.matrix.filter_pos = pos_of(filter.source(), ctx.file);
    if (s == nullptr) {
        ctx.diag.add(spec.matrix.filter_pos,
                     "\"filter\" in [matrix] must be a string, not a " + toml_type_name(filter),
                     "write it as: filter = \"clients >= threads\"");
        return;
    }
    std::size_t offset = 0;
    auto expr = FilterExpr::parse(s->get(), &offset);
    if (!expr) {
        ctx.diag.add(spec.matrix.filter_pos.shifted(static_cast<std::uint32_t>(offset + 1)),
                     "invalid filter: " + expr.error().message,
                     "write conditions such as clients >= 4 && settings.fsync == \"off\"");
        return;
    }
    spec.matrix.filter = std::move(*expr);
}

} // namespace

void parse_matrix(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec) {
    const auto* t = expect_table(node, "\"matrix\"", "[matrix] then clients = [1, 2, 4]", ctx);
    if (t == nullptr) {
        return;
    }
    std::vector<Entry> entries;
    const toml::node* filter = nullptr;
    for (const auto& [k, v] : *t) {
        std::string name(k.str());
        const SourcePos kp = pos_of(k.source(), ctx.file);
        const toml::node* values = &v;
        // a quoted dotted key: "settings.shared_buffers" = [...]
        std::string group = name.substr(0, name.find('.'));
        const bool dotted = group.size() < name.size();
        if (name == "filter") {
            filter = &v;
            continue;
        }
        if (group == "settings" || group == "vars" || group == "params") {
            const VariableKind kind = group == "settings" ? VariableKind::setting
                                      : group == "vars"   ? VariableKind::script_var
                                                          : VariableKind::param;
            if (dotted) {
                const std::string key = name.substr(group.size() + 1);
                entries.push_back(Entry{name, kind, key, values, kp});
            } else {
                collect_group(group, kind, v, kp, ctx, entries);
            }
            continue;
        }
        const auto* b = std::find_if(std::begin(k_builtins), std::end(k_builtins),
                                     [&](const Builtin& x) { return name == x.name; });
        if (b == std::end(k_builtins)) {
            ctx.diag.add(
                kp, "unknown key \"" + name + "\" in [matrix]" + did_you_mean(name, known_keys()),
                "matrix variables are " + quoted_list(known_keys())
                    + "; free variables go under params.NAME");
            continue;
        }
        entries.push_back(Entry{name, b->kind, name, values, kp});
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return std::pair(a.pos.line, a.pos.column) < std::pair(b.pos.line, b.pos.column);
    });
    for (const auto& e : entries) {
        add_variable(e, ctx, spec);
    }
    const auto* duration = spec.matrix.find("duration");
    if (duration != nullptr && spec.matrix.find("transactions") != nullptr) {
        ctx.diag.add(spec.matrix.find("transactions")->pos,
                     "\"duration\" and \"transactions\" cannot both be matrix variables",
                     "a bench run is bounded by time (--time) or by transactions (--transactions), "
                     "not both: keep one");
    }
    if (filter != nullptr) {
        read_filter(*filter, ctx, spec);
    }
}

} // namespace pglab::lab::experiment
