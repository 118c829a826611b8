// lab/store: experiment::Claim to and from its plan.json object.
#include "lab/store/claim_json.hpp"

#include "lab/store/json_fields.hpp"

#include <string>
#include <utility>

namespace pglab::lab::store {

namespace {

using nlohmann::json;
namespace f = fields;

json selector_json(const experiment::CellSelector& s) {
    json items = json::array();
    for (const auto& [name, value] : s.items) {
        items.push_back({{"name", name}, {"value", value}});
    }
    return {{"text", s.text}, {"items", items}};
}

experiment::CellSelector selector_from(const json& j) {
    experiment::CellSelector s;
    if (!j.is_object()) {
        return s;
    }
    s.text = f::text(j, "text");
    const json& items = f::value(j, "items");
    if (items.is_array()) {
        for (const json& item : items) {
            if (item.is_object()) {
                s.items.emplace_back(f::text(item, "name"), f::text(item, "value"));
            }
        }
    }
    return s;
}

} // namespace

json claim_json(const experiment::Claim& c) {
    return {{"text", c.text},
            {"source", c.source},
            {"step", c.step},
            {"metric", c.metric},
            {"kind", experiment::claim_kind_name(c.kind)},
            {"cell", selector_json(c.cell)},
            {"baseline", selector_json(c.baseline)},
            {"divided_by_cell", selector_json(c.divided_by_cell)},
            {"divided_by_baseline", selector_json(c.divided_by_baseline)},
            {"paper", f::number_or_null(c.paper)},
            {"at_most", f::number_or_null(c.at_most)},
            {"at_least", f::number_or_null(c.at_least)},
            {"tolerance", c.tolerance},
            {"exact", c.exact},
            {"shape", experiment::shape_name(c.shape)},
            {"min_step", c.min_step},
            {"over", c.over},
            {"from", c.from},
            {"paper_text", c.paper_text},
            {"own", c.own},
            {"explanation", c.explanation},
            {"evidence", c.evidence},
            {"hypothesis", c.hypothesis},
            {"untestable", c.untestable},
            {"items", c.items}};
}

std::optional<experiment::Claim> claim_from_json(const json& j) {
    if (!j.is_object()) {
        return std::nullopt;
    }
    experiment::Claim c;
    const std::string kind_name = f::text(j, "kind");
    const auto kind = experiment::claim_kind_named(kind_name);
    c.text = f::text(j, "text");
    c.source = f::text(j, "source");
    c.step = f::text(j, "step");
    c.metric = f::text(j, "metric");
    c.kind = kind.value_or(experiment::ClaimKind::value);
    c.cell = selector_from(f::value(j, "cell"));
    c.baseline = selector_from(f::value(j, "baseline"));
    c.divided_by_cell = selector_from(f::value(j, "divided_by_cell"));
    c.divided_by_baseline = selector_from(f::value(j, "divided_by_baseline"));
    c.paper = f::number(j, "paper");
    c.at_most = f::number(j, "at_most");
    c.at_least = f::number(j, "at_least");
    c.tolerance = f::number(j, "tolerance").value_or(c.tolerance);
    c.exact = f::boolean(j, "exact", false);
    c.shape = experiment::shape_named(f::text(j, "shape"));
    c.min_step = f::number(j, "min_step").value_or(0);
    c.over = f::text(j, "over");
    c.from = f::text(j, "from");
    c.paper_text = f::text(j, "paper_text");
    c.own = f::boolean(j, "own", false);
    c.explanation = f::text(j, "explanation");
    c.evidence = f::text(j, "evidence");
    c.hypothesis = f::boolean(j, "hypothesis", false);
    c.untestable = f::text(j, "untestable");
    const json& items = f::value(j, "items");
    if (items.is_array()) {
        for (const json& item : items) {
            if (item.is_string()) {
                c.items.push_back(item.get<std::string>());
            }
        }
    }
    if (!kind) {
        // Written by a newer pglab: shown, and said why it is not judged.
        c.untestable = "a claim kind this pglab does not know (\"" + kind_name + "\")";
    }
    return c;
}

} // namespace pglab::lab::store
