// lab/spec: `[quick]`, the short form of an experiment that `pglab run --quick` runs: other
// repetitions and warm-ups, a run timeout, and other values for some matrix variables
// (`[quick.matrix]`, read by the [matrix] parser so the same values are valid in both).
#include "lab/spec/parse_parts.hpp"
#include "lab/spec/suggest.hpp"
#include "lab/spec/toml_reader.hpp"

namespace pglab::lab::spec {

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
    if (auto repeat = r.integer("repeat", 1, 10'000, "repeat = 1")) {
        q.repeat = static_cast<std::uint32_t>(*repeat);
    }
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
    r.finish();
}

void apply_quick(ExperimentSpec& spec) {
    const QuickForm& q = spec.quick;
    spec.repeat = q.repeat.value_or(spec.repeat);
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
    spec.name += "-quick";
    spec.is_quick = true;
}

} // namespace pglab::lab::spec
