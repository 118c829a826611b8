// lab/experiment: `[quick]`, the short form of an experiment that `pglab run --quick` runs: other
// repetitions and warm-ups, a run timeout, other values for some matrix variables
// (`[quick.matrix]`, read by the [matrix] parser so the same values are valid in both), and
// a smaller emulated machine (`[quick.servers.NAME]`: memory_limit, sync_delay).
#include "lab/experiment/parse_parts.hpp"
#include "lab/experiment/suggest.hpp"
#include "lab/experiment/toml_reader.hpp"

#include <algorithm>

namespace pglab::lab::experiment {

namespace {

/// `[quick.servers]`: a table per declared server.
void parse_quick_servers(const toml::node& node, ParseContext& ctx, ExperimentSpec& spec) {
    const auto* t = expect_table(&node, "\"servers\" in [quick]",
                                 "[quick.servers.small] then memory_limit = \"384MB\"", ctx);
    if (t == nullptr) {
        return;
    }
    std::vector<std::string> names; // the embedded default is no declared server
    for (const auto& s : spec.servers) {
        if (!s.implicit) {
            names.push_back(s.name);
        }
    }
    for (const auto& [key, value] : *t) {
        const std::string name(key.str());
        const SourcePos pos = pos_of(key.source(), ctx.file);
        const ServerSpec* server = spec.find_server(name);
        if (server == nullptr || server->implicit) {
            ctx.diag.add(pos,
                         "[quick.servers." + name + "] names no server of [servers]"
                             + did_you_mean(name, names),
                         "the quick form changes the memory_limit or sync_delay of a server "
                         "declared in [servers]");
            continue;
        }
        const auto* table =
            expect_table(&value, "[quick.servers." + name + "]", "memory_limit = \"384MB\"", ctx);
        if (table != nullptr) {
            spec.quick.servers.push_back(parse_quick_server(*server, *table, ctx));
        }
    }
}

} // namespace

void parse_quick(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec) {
    if (node == nullptr) {
        return;
    }
    const auto* t = expect_table(node, "\"quick\"", "[quick] then repeat = 1", ctx);
    if (t == nullptr) {
        return;
    }
    TableReader r(*t, "[quick]", ctx.file, ctx.diag);
    QuickForm& q = spec.quick;
    q.declared = true;
    q.pos = r.pos();
    read_repeat(r, ctx, q.repeat, q.until_decided);
    if (auto warmup = r.integer("warmup", 0, 1'000, "warmup = 0")) {
        q.warmup = static_cast<std::uint32_t>(*warmup);
    }
    q.run_timeout_ms = r.duration_ms("run_timeout", "run_timeout = \"5min\"");
    if (const toml::node* m = r.get("matrix")) {
        ExperimentSpec overrides;
        parse_matrix(m, ctx, overrides);
        std::vector<std::string> names;
        for (const auto& v : spec.matrix.variables) {
            names.push_back(v.name);
        }
        for (auto& v : overrides.matrix.variables) {
            if (spec.matrix.find(v.name) == nullptr) {
                ctx.diag.add(v.pos,
                             "\"" + v.name + "\" in [quick.matrix] is not a variable of [matrix]"
                                 + did_you_mean(v.name, names),
                             "the quick form gives other values to variables of [matrix]: "
                                 + quoted_list(names));
                continue;
            }
            q.matrix.push_back(std::move(v));
        }
        q.filter = std::move(overrides.matrix.filter);
    }
    if (const toml::node* servers = r.get("servers")) {
        parse_quick_servers(*servers, ctx, spec);
    }
    r.finish();
}

void apply_quick(ExperimentSpec& spec) {
    const QuickForm& q = spec.quick;
    if (q.repeat) {
        spec.repeat = *q.repeat;
        spec.until_decided = q.until_decided;
    }
    spec.warmup = q.warmup.value_or(spec.warmup);
    spec.run_timeout_ms = q.run_timeout_ms.value_or(spec.run_timeout_ms);
    for (const auto& v : q.matrix) {
        for (auto& var : spec.matrix.variables) {
            if (var.name == v.name) {
                var.values = v.values;
            }
        }
    }
    if (q.filter) {
        spec.matrix.filter = q.filter;
    }
    for (const auto& qs : q.servers) { // parse_quick_servers checked that each exists
        auto server = std::find_if(spec.servers.begin(), spec.servers.end(),
                                   [&](const ServerSpec& s) { return s.name == qs.name; });
        if (qs.memory_limit_bytes) {
            server->memory_limit_bytes = qs.memory_limit_bytes;
            server->memory_limit_pos = qs.memory_limit_pos;
        }
        if (qs.sync_delay_us) {
            server->sync_delay_us = qs.sync_delay_us;
        }
    }
    spec.name += "-quick";
    spec.is_quick = true;
}

} // namespace pglab::lab::experiment
