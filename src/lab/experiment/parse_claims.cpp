// lab/experiment: `question` and `[[claims]]`: what a study asks and what its source claims, each
// claim naming a step, a metric and cells of the matrix, with the paper's figure (or a bound,
// or a shape) and a tolerance. The report sets each claim beside the measured figure.
#include "lab/experiment/cell_selector.hpp"
#include "lab/experiment/coverage_items.hpp"
#include "lab/experiment/metric_catalogue.hpp"
#include "lab/experiment/parse_parts.hpp"
#include "lab/experiment/suggest.hpp"
#include "lab/experiment/toml_reader.hpp"
#include "util/named_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pglab::lab::experiment {
namespace {

constexpr const char* k_example = "[[claims]] with text = \"...\", step = \"create-gin\", "
                                  "metric = \"probe:wal.bytes\", ratio = [\"server=pg12\", "
                                  "\"server=pg11\"], paper = 0.553";

/// A number (integer or float) under `key`, or a diagnostic.
std::optional<double> number(TableReader& r, std::string_view key, std::string_view example) {
    const toml::node* n = r.get(key);
    if (n == nullptr) {
        return std::nullopt;
    }
    if (const auto* i = n->as_integer()) {
        return static_cast<double>(i->get());
    }
    if (const auto* f = n->as_floating_point(); f != nullptr && std::isfinite(f->get())) {
        return f->get();
    }
    r.type_error(key, *n, "a finite number", example);
    return std::nullopt;
}

/// Checks a cell selector "NAME=VALUE NAME=VALUE" written at `pos` against the matrix.
void check_selector(const std::string& text, const SourcePos& pos, const ExperimentSpec& spec,
                    ParseContext& ctx) {
    std::vector<std::string> names;
    for (const auto& v : spec.matrix.variables) {
        names.push_back(v.name);
    }
    bool any = false;
    for (const auto& si : split_selector(text)) {
        const std::string& item = si.text;
        const SourcePos at = pos.shifted(static_cast<std::uint32_t>(si.offset + 1));
        any = true;
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0) {
            ctx.diag.add(at, "invalid cell selector \"" + item + "\"",
                         "name cells as NAME=VALUE NAME=VALUE: \"server=pg12 clients=8\"");
            continue;
        }
        const std::string name = item.substr(0, eq);
        const std::string value = item.substr(eq + 1);
        const MatrixVariable* var = spec.matrix.find(name);
        if (var == nullptr) {
            if (name == "server") {
                continue; // the run's server when the matrix has no `server`
            }
            ctx.diag.add(at,
                         "\"" + name + "\" is not a matrix variable" + did_you_mean(name, names),
                         "cells are named by matrix variables: " + quoted_list(names));
            continue;
        }
        const bool known = std::any_of(var->values.begin(), var->values.end(),
                                       [&](const Scalar& s) { return s.text() == value; });
        if (!known) {
            std::vector<std::string> values;
            for (const auto& s : var->values) {
                values.push_back(s.text());
            }
            ctx.diag.add(at.shifted(static_cast<std::uint32_t>(eq + 1)),
                         "\"" + value + "\" is not a value of \"" + name + "\"",
                         "its values are " + quoted_list(values));
        }
    }
    if (!any) {
        ctx.diag.add(pos, "empty cell selector", "write NAME=VALUE: \"server=pg12\"");
    }
}

/// The selector `text` written at `pos`, checked against the matrix; an empty selector when it
/// was refused (the diagnostic says why, and no spec is made).
CellSelector resolved_selector(const std::string& text, const SourcePos& pos,
                               const ExperimentSpec& spec, ParseContext& ctx) {
    check_selector(text, pos, spec, ctx);
    auto parsed = parse_cell_selector(text);
    return parsed ? std::move(*parsed) : CellSelector{};
}

/// A selector under `key` (checked), or nullopt.
std::optional<CellSelector> selector(TableReader& r, std::string_view key,
                                     const ExperimentSpec& spec, ParseContext& ctx) {
    auto t = r.text(key, fmt::format("{} = \"server=pg12\"", key));
    if (t) {
        return resolved_selector(t->text, t->pos, spec, ctx);
    }
    return std::nullopt;
}

/// `key = ["A", "B"]`: two cell selectors into `first` and `second`; false (with a diagnostic)
/// when it is not.
bool read_pair(TableReader& r, std::string_view key, const toml::node& n, CellSelector& first,
               CellSelector& second, const ExperimentSpec& spec, ParseContext& ctx) {
    const auto* arr = n.as_array();
    if (arr == nullptr || arr->size() != 2 || !(*arr)[0].is_string() || !(*arr)[1].is_string()) {
        ctx.diag.add(r.value_pos(n),
                     fmt::format("\"{}\" in {} must be two cell selectors, not {}", key, r.where(),
                                 arr != nullptr ? "an array of " + std::to_string(arr->size())
                                                : "a " + toml_type_name(n)),
                     fmt::format("write it as: {} = [\"server=pg12\", \"server=pg11\"] (the first "
                                 "over the second)",
                                 key));
        return false;
    }
    first = resolved_selector(*(*arr)[0].value<std::string>(), r.value_pos((*arr)[0]), spec, ctx);
    second = resolved_selector(*(*arr)[1].value<std::string>(), r.value_pos((*arr)[1]), spec, ctx);
    return true;
}

/// A ratio read along `over`: its selectors name the cells of each level but the level itself.
void check_ratio_along(TableReader& r, const Claim& c, ParseContext& ctx) {
    for (const CellSelector* s : {&c.cell, &c.baseline}) {
        for (const auto& [name, value] : s->items) {
            if (name == c.over) {
                ctx.diag.add(r.key_pos("ratio"),
                             "the ratio's cell \"" + s->text + "\" names \"" + c.over
                                 + "\", the variable the shape is read along",
                             "leave \"" + c.over
                                 + "\" out of the selectors: each of its values is a level, "
                                   "read as the ratio of the two cells at that value");
                return;
            }
        }
    }
}

void read_shape(TableReader& r, Claim& c, const ExperimentSpec& spec, ParseContext& ctx) {
    auto over = r.text("over", "over = \"settings.shared_buffers\"");
    if (!over) {
        ctx.diag.add(r.key_pos("shape"),
                     "a shape claim needs \"over\", the matrix variable along "
                     "which the shape is read",
                     "add: over = \"settings.shared_buffers\"");
        return;
    }
    c.over = over->text;
    const MatrixVariable* var = spec.matrix.find(c.over);
    if (var == nullptr) {
        std::vector<std::string> names;
        for (const auto& v : spec.matrix.variables) {
            names.push_back(v.name);
        }
        ctx.diag.add(over->pos.shifted(1),
                     "\"" + c.over + "\" is not a matrix variable" + did_you_mean(c.over, names),
                     "name one of " + quoted_list(names));
        return;
    }
    if (auto step = number(r, "min_step", "min_step = 0.1")) {
        if (*step < 0 || c.shape == Shape::flat) {
            ctx.diag.add(r.key_pos("min_step"),
                         c.shape == Shape::flat
                             ? "\"min_step\" applies to an increasing, decreasing "
                               "or levels_off shape, not a flat one"
                             : "\"min_step\" must not be negative",
                         "min_step = 0.1: every step at least 10% in the trend's direction");
        }
        c.min_step = *step;
    }
    if (auto from = r.text("from", "from = \"512MB\"")) {
        c.from = from->text;
        const bool known = std::any_of(var->values.begin(), var->values.end(),
                                       [&](const Scalar& s) { return s.text() == c.from; });
        if (!known) {
            ctx.diag.add(from->pos.shifted(1),
                         "\"" + c.from + "\" is not a value of \"" + c.over + "\"",
                         "\"from\" names the first value of \"over\" the shape holds from");
        }
    }
}

/// The step of the file named `name`; nullptr when none is.
const Step* step_named(const ExperimentSpec& spec, const std::string& name) {
    const auto it = std::find_if(spec.steps.begin(), spec.steps.end(),
                                 [&](const Step& s) { return s.name == name; });
    return it != spec.steps.end() ? &*it : nullptr;
}

/// A metric a claim names (its `metric`, its `evidence`) must be one its step gives (the metric
/// catalogue): a misspelt one is found now, not after the run.
void check_step_metric(const std::string& step_name, const std::string& metric,
                       const SourcePos& pos, const ExperimentSpec& spec, ParseContext& ctx) {
    const Step* step = step_named(spec, step_name);
    if (step == nullptr || gives_metric(step->type, metric)) {
        return;
    }
    if (metric.starts_with(k_probe_prefix)) {
        const std::string family(probe_family(metric));
        ctx.diag.add(pos,
                     "\"" + metric + "\" names no probe pglab takes"
                         + (family.empty() ? std::string()
                                           : " (no probe family \"" + family + "\""
                                                 + did_you_mean(family, probe_families()) + ")"),
                     "probes are named FAMILY.NAME, FAMILY one of " + quoted_list(probe_families())
                         + " (docs/probes.md)");
        return;
    }
    const std::vector<std::string> ids = metric_ids(step->type);
    ctx.diag.add(pos,
                 "step \"" + step_name + "\" (" + step_type_name(step->type)
                     + ") gives no metric \"" + metric + "\"" + did_you_mean(metric, ids),
                 "its metrics: " + quoted_list(ids));
}

void check_metric(const Claim& c, const SourcePos& pos, const ExperimentSpec& spec,
                  ParseContext& ctx) {
    check_step_metric(c.step, c.metric, pos, spec, ctx);
}

/// What the explanation rests on: `evidence = "probe:wal.fpi"`, a metric of the claim's step that
/// the report shows beside it, or `hypothesis = true`, a mechanism not measured. Not both.
void read_explanation_basis(TableReader& r, Claim& c, const ExperimentSpec& spec,
                            ParseContext& ctx) {
    const auto evidence = r.text("evidence", "evidence = \"probe:wal.fpi\"");
    c.hypothesis = r.boolean("hypothesis", "hypothesis = true").value_or(false);
    if (evidence) {
        c.evidence = evidence->text;
        check_step_metric(c.step, c.evidence, evidence->pos.shifted(1), spec, ctx);
    }
    if ((evidence || c.hypothesis) && c.explanation.empty()) {
        ctx.diag.add(r.key_pos(evidence ? "evidence" : "hypothesis"),
                     std::string("\"") + (evidence ? "evidence" : "hypothesis") + "\" in "
                         + r.where() + " qualifies an explanation, and it has none",
                     "explanation = \"why it differs here\"");
    }
    if (evidence && c.hypothesis) {
        ctx.diag.add(r.key_pos("hypothesis"),
                     "\"hypothesis\" and \"evidence\" cannot be combined in " + r.where(),
                     "keep evidence when a stored figure shows the mechanism, hypothesis when "
                     "none does yet");
    }
}

/// A proportion (a hit ratio) is read on the log-odds scale: a ratio of ratios of it, which is
/// read on the log scale, is refused rather than judged on a scale it does not live on.
void check_proportion(const Claim& c, const SourcePos& pos, const ExperimentSpec& spec,
                      ParseContext& ctx) {
    if (c.kind != ClaimKind::ratio_along && c.kind != ClaimKind::ratio_of_ratios) {
        return;
    }
    const Step* step = step_named(spec, c.step);
    const MetricInfo* info = step != nullptr ? step_metric_info(step->type, c.metric) : nullptr;
    if (info != nullptr && info->proportion) {
        ctx.diag.add(pos,
                     "\"" + c.metric + "\" is a proportion: "
                         + (c.kind == ClaimKind::ratio_along ? "a ratio of it along a variable"
                                                             : "a ratio of ratios of it")
                         + " is not judged",
                     "compare two of its cells with ratio = [\"A\", \"B\"], or read it along a "
                     "variable with a shape claim");
    }
}

/// `step`: the measured step, which must be a named step of the file.
void read_claim_step(TableReader& r, Claim& c, const ExperimentSpec& spec, ParseContext& ctx) {
    if (const auto step = r.text("step", "step = \"create-gin\"")) {
        c.step = step->text;
        if (step_named(spec, c.step) == nullptr) {
            std::vector<std::string> names;
            for (const auto& s : spec.steps) {
                if (!s.name.empty()) {
                    names.push_back(s.name);
                }
            }
            ctx.diag.add(step->pos.shifted(1),
                         "no step is named \"" + c.step + "\"" + did_you_mean(c.step, names),
                         names.empty() ? "give the step a name: name = \"...\""
                                       : "name a step: " + quoted_list(names));
        }
    }
}

/// What a testable claim must have: a step, a metric the step gives, one figure to test.
void check_claim_complete(TableReader& r, const Claim& c, std::size_t index,
                          const std::optional<TextField>& metric, const ExperimentSpec& spec,
                          ParseContext& ctx) {
    if (c.step.empty()) {
        ctx.diag.add(c.pos, "claim " + std::to_string(index + 1) + " names no \"step\"",
                     "name the measured step: step = \"create-gin\" (or say why it cannot be "
                     "tested here: untestable = \"...\")");
    }
    if (c.metric.empty()) {
        ctx.diag.add(c.pos, "claim " + std::to_string(index + 1) + " names no \"metric\"",
                     "name a metric of the report: metric = \"tps\", \"execution_ms\", "
                     "\"probe:wal.bytes\"");
    } else if (metric) {
        check_metric(c, metric->pos.shifted(1), spec, ctx);
        check_proportion(c, metric->pos.shifted(1), spec, ctx);
    }
    const bool shape = c.kind == ClaimKind::shape || c.kind == ClaimKind::ratio_along;
    const int expectations = (c.paper ? 1 : 0) + (c.at_most ? 1 : 0) + (c.at_least ? 1 : 0);
    if (!shape && expectations == 0) {
        ctx.diag.add(c.pos, "claim " + std::to_string(index + 1) + " gives no figure to test",
                     "give the paper's figure (paper = 0.553, with tolerance) or a bound "
                     "(at_most = 0.6, at_least = 2)");
    }
    if (c.exact && (shape || c.kind == ClaimKind::spread)) {
        ctx.diag.add(r.key_pos("exact"),
                     "\"exact\" in claim " + std::to_string(index + 1)
                         + " is for a ratio or a value, not a " + (shape ? "shape" : "spread"),
                     shape ? "remove \"exact\": a shape is read from the cells' means"
                           : "remove \"exact\": a spread is read from how the runs vary");
    }
    if (c.paper && (c.at_most || c.at_least)) {
        ctx.diag.add(r.key_pos("paper"), "\"paper\" and a bound cannot be combined in one claim",
                     "keep \"paper\" (with tolerance) or the bound (at_most, at_least)");
    }
}

/// The claim's kind from the keys that give its cells: `ratio` (with `shape`: along a variable;
/// with `divided_by`: a ratio of ratios), `spread`, `shape`, or `cell` alone (a value).
void read_claim_kind(TableReader& r, Claim& c, const ExperimentSpec& spec, ParseContext& ctx) {
    const toml::node* ratio = r.get("ratio");
    const toml::node* spread = r.get("spread");
    const toml::node* divided_by = r.get("divided_by");
    const auto shape = r.choice("shape", {"flat", "increasing", "decreasing", "levels_off"});
    if (spread != nullptr) {
        c.kind = ClaimKind::spread;
        if (ratio != nullptr || shape || divided_by != nullptr) {
            ctx.diag.add(r.key_pos("spread"),
                         "\"spread\" in " + r.where()
                             + " is a claim of its own, not with \"ratio\", \"divided_by\" or "
                               "\"shape\"",
                         "make it a claim of its own: spread = [\"A\", \"B\"], at_least = 1.5");
        }
        read_pair(r, "spread", *spread, c.cell, c.baseline, spec, ctx);
        return;
    }
    if (divided_by != nullptr && (ratio == nullptr || shape)) {
        ctx.diag.add(r.key_pos("divided_by"),
                     ratio == nullptr
                         ? "\"divided_by\" divides a \"ratio\", and " + r.where() + " has none"
                         : "\"divided_by\" and \"shape\" cannot be combined",
                     "a ratio of ratios: ratio = [\"A\", \"B\"], divided_by = [\"C\", \"D\"] "
                     "is (A/B) / (C/D)");
        return;
    }
    if (shape) {
        c.shape = shape_named(*shape);
        c.kind = ratio != nullptr ? ClaimKind::ratio_along : ClaimKind::shape;
        read_shape(r, c, spec, ctx);
    }
    if (ratio == nullptr) {
        return;
    }
    if (!read_pair(r, "ratio", *ratio, c.cell, c.baseline, spec, ctx)) {
        return;
    }
    if (divided_by != nullptr) {
        c.kind = ClaimKind::ratio_of_ratios;
        read_pair(r, "divided_by", *divided_by, c.divided_by_cell, c.divided_by_baseline, spec,
                  ctx);
    } else if (c.kind == ClaimKind::ratio_along) {
        check_ratio_along(r, c, ctx);
    } else {
        c.kind = ClaimKind::ratio;
    }
}

std::optional<Claim> read_claim(const toml::table& t, std::size_t index, ParseContext& ctx,
                                const ExperimentSpec& spec) {
    TableReader r(t, "claim " + std::to_string(index + 1), ctx.file, ctx.diag);
    Claim c;
    c.pos = r.pos();
    const auto text = r.string("text", "text = \"12 writes 45% less WAL than 11\"");
    if (!text || text->empty()) {
        ctx.diag.add(c.pos, "claim " + std::to_string(index + 1) + " has no \"text\"",
                     "say the claim in words: text = \"12 writes 45% less WAL than 11\"");
    }
    c.text = text.value_or("");
    c.source = r.string("source", "source = \"https://...\"").value_or("");
    c.explanation = r.string("explanation", "explanation = \"...\"").value_or("");
    c.paper_text = r.string("paper_text", "paper_text = \"167.9 → 92.8 MB\"").value_or("");
    c.untestable = r.string("untestable", "untestable = \"needs ZFS\"").value_or("");
    c.own = r.boolean("own", "own = true").value_or(false);
    if (c.own && !c.paper_text.empty()) {
        ctx.diag.add(r.key_pos("own"),
                     "claim " + std::to_string(index + 1)
                         + " is pglab's own (own = true) and quotes the paper (paper_text)",
                     "a hypothesis of pglab's has no paper words: remove paper_text, or own if the "
                     "paper says it");
    }
    read_claim_step(r, c, spec, ctx);
    read_explanation_basis(r, c, spec, ctx);
    c.items = read_coverage_items(r);
    const auto metric = r.text("metric", "metric = \"probe:wal.bytes\"");
    c.metric = metric ? metric->text : std::string();
    c.paper = number(r, "paper", "paper = 0.553");
    c.at_most = number(r, "at_most", "at_most = 0.6");
    c.at_least = number(r, "at_least", "at_least = 1.0");
    if (auto tol = number(r, "tolerance", "tolerance = 0.1")) {
        if (*tol < 0) {
            ctx.diag.add(r.key_pos("tolerance"), "\"tolerance\" must not be negative",
                         "write a fraction: tolerance = 0.1 (±10%)");
        }
        c.tolerance = *tol;
    }
    c.exact = r.boolean("exact", "exact = true").value_or(false);
    read_claim_kind(r, c, spec, ctx);
    r.allow("over");
    r.allow("from");
    if (auto cell = selector(r, "cell", spec, ctx)) {
        if (c.kind != ClaimKind::value && c.kind != ClaimKind::shape) {
            const bool spread = c.kind == ClaimKind::spread;
            ctx.diag.add(r.key_pos("cell"),
                         fmt::format("a {} claim names its cells in \"{}\"",
                                     spread ? "spread" : "ratio", spread ? "spread" : "ratio"),
                         "remove \"cell\", or write ratio = [\"A\", \"B\"] with the whole cells");
        }
        c.cell = std::move(*cell);
    }
    if (!c.untestable.empty()) {
        r.finish();
        return c;
    }
    check_claim_complete(r, c, index, metric, spec, ctx);
    r.finish();
    return c;
}

constexpr std::pair<Shape, const char*> k_shapes[] = {
    {Shape::flat, "flat"},
    {Shape::increasing, "increasing"},
    {Shape::decreasing, "decreasing"},
    {Shape::levels_off, "levels_off"},
};

constexpr std::pair<ClaimKind, const char*> k_claim_kinds[] = {
    {ClaimKind::ratio, "ratio"},
    {ClaimKind::value, "value"},
    {ClaimKind::shape, "shape"},
    {ClaimKind::ratio_along, "ratio_along"},
    {ClaimKind::ratio_of_ratios, "ratio_of_ratios"},
    {ClaimKind::spread, "spread"},
};

} // namespace

const char* shape_name(Shape shape) {
    return shape == Shape::none ? "" : util::name_of(k_shapes, shape);
}

Shape shape_named(std::string_view name) {
    return util::value_named(k_shapes, name).value_or(Shape::none);
}

const char* claim_kind_name(ClaimKind kind) {
    return util::name_of(k_claim_kinds, kind);
}

std::optional<ClaimKind> claim_kind_named(std::string_view name) {
    return util::value_named(k_claim_kinds, name);
}

void parse_claims(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec) {
    if (node == nullptr) {
        return;
    }
    for_each_table(*node, "claims", "claim", k_example, ctx,
                   [&](const toml::table& t, std::size_t index) {
                       if (auto claim = read_claim(t, index, ctx, spec)) {
                           spec.claims.push_back(std::move(*claim));
                       }
                   });
}

} // namespace pglab::lab::experiment
