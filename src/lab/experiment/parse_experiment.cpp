// lab/experiment: the top level of an experiment file (name, repeat, order, seed...) and the driver
// that runs the section parsers and the cross-reference checks.
#include "lab/experiment/parse_experiment.hpp"

#include "lab/experiment/parse_parts.hpp"
#include "lab/experiment/toml_reader.hpp"
#include "util/named_values.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <utility>

namespace pglab::lab::experiment {

namespace {

constexpr std::pair<RunOrder, const char*> k_run_orders[] = {
    {RunOrder::as_written, "as-written"},
    {RunOrder::random, "random"},
    {RunOrder::interleaved, "interleaved"},
    {RunOrder::paired, "paired"},
};

} // namespace

const char* run_order_name(RunOrder order) {
    return util::name_of(k_run_orders, order);
}

std::optional<RunOrder> run_order_named(std::string_view name) {
    return util::value_named(k_run_orders, name);
}

namespace {

/// Whether a claim of `spec` compares cells (a ratio, a ratio of ratios, a spread, a ratio along
/// a variable): then runs pair up.
bool compares_cells(const ExperimentSpec& spec) {
    return std::any_of(spec.claims.begin(), spec.claims.end(), [](const Claim& c) {
        return c.untestable.empty()
               && (c.kind == ClaimKind::ratio || c.kind == ClaimKind::ratio_of_ratios
                   || c.kind == ClaimKind::spread || c.kind == ClaimKind::ratio_along);
    });
}

/// `order = "paired"` is the default when claims compare cells, and needs such a claim.
void choose_paired_order(TableReader& r, bool order_given, ParseContext& ctx,
                         ExperimentSpec& spec) {
    const bool pairs = compares_cells(spec);
    if (!order_given) {
        spec.order = pairs ? RunOrder::paired : spec.order;
        return;
    }
    if (spec.order == RunOrder::paired && !pairs) {
        ctx.diag.add(r.value_pos(*r.get("order")),
                     "order = \"paired\" pairs the cells a claim compares, and no claim compares "
                     "cells",
                     "add a claim with ratio = [\"A\", \"B\"], or use order = \"interleaved\"");
    }
}

void read_top_level(TableReader& r, ParseContext& ctx, ExperimentSpec& spec) {
    if (auto name = r.string("name", "name = \"shared_buffers sweep\"")) {
        spec.name = *name;
    }
    spec.description = r.string("description", "description = \"...\"").value_or("");
    std::optional<std::uint32_t> repeat;
    read_repeat(r, ctx, repeat, spec.until_decided);
    spec.repeat = repeat.value_or(spec.repeat);
    if (auto warmup = r.integer("warmup", 0, 1'000, "warmup = 1")) {
        spec.warmup = static_cast<std::uint32_t>(*warmup);
    }
    const bool order_given = r.get("order") != nullptr;
    spec.order_given = order_given;
    if (auto order = r.choice("order", util::names_of(k_run_orders))) {
        spec.order = util::value_named(k_run_orders, *order).value_or(RunOrder::as_written);
    }
    if (auto seed = r.integer("seed", 0, INT64_MAX, "seed = 42")) {
        spec.seed = static_cast<std::uint64_t>(*seed);
    }
    if (auto on_error = r.choice("on_error", {"stop", "continue"})) {
        spec.on_error = *on_error == "stop" ? OnError::stop : OnError::continue_;
    }
    spec.run_timeout_ms = r.duration_ms("run_timeout", "run_timeout = \"30min\"").value_or(0);
    spec.settle = r.boolean("settle", "settle = false").value_or(true);
    spec.destructive_ok = r.boolean("destructive_ok", "destructive_ok = true").value_or(false);
    spec.default_server = r.string("server", "server = \"pg16\"").value_or("");
    parse_servers(r.get("servers"), ctx, spec);
    parse_sessions(r.get("sessions"), ctx, spec);
    parse_scripts(r.get("scripts"), ctx, spec);
    parse_matrix(r.get("matrix"), ctx, spec);
    parse_steps(r.get("steps"), ctx, spec);
    spec.question =
        r.string("question", "question = \"Does 12 write less WAL than 11?\"").value_or("");
    parse_claims(r.get("claims"), ctx, spec);
    choose_paired_order(r, order_given, ctx, spec);
    parse_quick(r.get("quick"), ctx, spec);
    r.finish();
}

std::string stem_of(const std::string& file) {
    return std::filesystem::path(file).stem().string();
}

} // namespace

ParseOutcome parse_experiment_text(std::string_view text, const std::string& file,
                                   const std::filesystem::path& base_dir,
                                   const ParseOptions& options) {
    ParseOutcome out;
    ParseContext ctx{file, base_dir, options.read_files, out.diagnostics};
    toml::table root;
    try {
        root = toml::parse(text, file);
    } catch (const toml::parse_error& e) {
        const std::string what(e.description());
        std::string hint = "fix the TOML syntax at this place (strings need quotes, arrays are "
                           "[a, b], tables start with [name])";
        if (what.find("escape sequence") != std::string::npos) {
            hint = "in \"...\" and \"\"\"...\"\"\" strings a backslash starts an escape: write "
                   "scripts (\\set, \\sleep) in '''...''' literal strings, or double the backslash";
        }
        out.diagnostics.add(pos_of(e.source(), file), "invalid TOML: " + what, hint);
        return out;
    }
    ExperimentSpec spec;
    spec.file = file;
    spec.name = stem_of(file);
    TableReader r(root, "the top level", file, out.diagnostics);
    read_top_level(r, ctx, spec);
    const SourcePos server_pos = root.get("server") != nullptr
                                     ? pos_of(root.get("server")->source(), file)
                                     : SourcePos{file, 1, 1};
    check_default_server(ctx, spec, server_pos);
    if (options.quick) {
        if (!spec.quick.declared) {
            out.diagnostics.add(SourcePos{file, 1, 1}, "the experiment has no quick form",
                                "add a [quick] table (repeat, matrix values) or run it without "
                                "--quick");
        } else {
            apply_quick(spec);
        }
    }
    check_references(ctx, spec);
    check_repeat(ctx, spec);
    if (out.diagnostics.empty() && options.check_settings) {
        options.check_settings(setting_refs(spec), out.diagnostics);
    }
    if (out.diagnostics.empty()) {
        out.spec = std::move(spec);
    }
    return out;
}

Result<ExperimentSpec> parse_experiment(std::string_view text, const std::string& file,
                                        const std::filesystem::path& base_dir,
                                        const ParseOptions& options) {
    ParseOutcome out = parse_experiment_text(text, file, base_dir, options);
    if (!out.spec) {
        return out.diagnostics.to_error();
    }
    return std::move(*out.spec);
}

Result<ExperimentSpec> parse_experiment_file(const std::filesystem::path& path,
                                             const ParseOptions& options) {
    std::ifstream in(path, std::ios::binary);
    if (!in.is_open()) {
        return make_error(Error("could not open experiment file \"" + path.string() + "\"")
                              .with_hint("check the path and that the file is readable"));
    }
    std::ostringstream buf;
    buf << in.rdbuf();
    if (in.bad()) {
        return make_error("could not read experiment file \"" + path.string() + "\"");
    }
    return parse_experiment(buf.str(), path.string(), path.parent_path(), options);
}

} // namespace pglab::lab::experiment
