// lab/run: EXPLAIN JSON summary.
#include "lab/run/explain_summary.hpp"

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

nlohmann::json number_or_null(const nlohmann::json& obj, const char* key) {
    auto it = obj.find(key);
    return it != obj.end() && it->is_number() ? *it : nlohmann::json();
}

} // namespace

Result<nlohmann::json> summarize_explain(std::string_view explain_json) {
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
    std::vector<std::string> types;
    long long heap_fetches = 0;
    walk(plan, types, heap_fetches);
    nlohmann::json out;
    out["execution_ms"] = number_or_null(*top, "Execution Time");
    out["planning_ms"] = number_or_null(*top, "Planning Time");
    out["total_cost"] = number_or_null(plan, "Total Cost");
    out["node_types"] = types;
    const nlohmann::json hit = number_or_null(plan, "Shared Hit Blocks");
    const nlohmann::json read = number_or_null(plan, "Shared Read Blocks");
    out["shared_hit_blocks"] = hit.is_null() ? nlohmann::json(0) : hit;
    out["shared_read_blocks"] = read.is_null() ? nlohmann::json(0) : read;
    out["heap_fetches"] = heap_fetches;
    out["rows"] = number_or_null(plan, "Actual Rows");
    return out;
}

} // namespace pglab::lab::run
