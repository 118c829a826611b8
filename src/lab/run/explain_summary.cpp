// lab/run: EXPLAIN JSON summary.
#include "lab/run/explain_summary.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace pglab::lab::run {

namespace {

void walk(const nlohmann::json& node, std::vector<std::string>& types, long long& heap_fetches) {
    if (!node.is_object()) {
        return;
    }
    if (auto it = node.find("Node Type"); it != node.end() && it->is_string()) {
        const std::string type = it->get<std::string>();
        if (std::find(types.begin(), types.end(), type) == types.end()) {
            types.push_back(type);
        }
    }
    if (auto it = node.find("Heap Fetches"); it != node.end() && it->is_number()) {
        heap_fetches += it->get<long long>();
    }
    if (auto it = node.find("Plans"); it != node.end() && it->is_array()) {
        for (const auto& child : *it) {
            walk(child, types, heap_fetches);
        }
    }
}

std::optional<double> number(const nlohmann::json& obj, const char* key) {
    const auto it = obj.find(key);
    return it != obj.end() && it->is_number() ? std::optional(it->get<double>()) : std::nullopt;
}

std::int64_t blocks(const nlohmann::json& obj, const char* key) {
    const auto it = obj.find(key);
    return it != obj.end() && it->is_number() ? it->get<std::int64_t>() : 0;
}

} // namespace

Result<store::ExplainSummary> summarize_explain(std::string_view explain_json) {
    const nlohmann::json doc = nlohmann::json::parse(explain_json, nullptr, false);
    const nlohmann::json* top = nullptr;
    if (doc.is_array() && !doc.empty() && doc[0].is_object()) {
        top = &doc[0];
    } else if (doc.is_object()) {
        top = &doc;
    }
    if (top == nullptr || !top->contains("Plan") || !(*top)["Plan"].is_object()) {
        return make_error("EXPLAIN did not return a JSON plan");
    }
    const nlohmann::json& plan = (*top)["Plan"];
    store::ExplainSummary out;
    long long heap_fetches = 0;
    walk(plan, out.node_types, heap_fetches);
    out.execution_ms = number(*top, "Execution Time");
    out.planning_ms = number(*top, "Planning Time");
    out.total_cost = number(plan, "Total Cost");
    out.shared_hit_blocks = blocks(plan, "Shared Hit Blocks");
    out.shared_read_blocks = blocks(plan, "Shared Read Blocks");
    out.heap_fetches = heap_fetches;
    out.rows = number(plan, "Actual Rows");
    return out;
}

} // namespace pglab::lab::run
