// lab/run: the summary of EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) kept for explain steps.
#include "lab/run/explain_summary.hpp"

#include <gtest/gtest.h>

namespace {

using pglab::lab::run::summarize_explain;

constexpr const char* k_analyze = R"json([
  {
    "Plan": {
      "Node Type": "Nested Loop", "Total Cost": 120.5, "Actual Rows": 10,
      "Shared Hit Blocks": 40, "Shared Read Blocks": 3,
      "Plans": [
        {"Node Type": "Index Only Scan", "Heap Fetches": 4, "Shared Hit Blocks": 20},
        {"Node Type": "Nested Loop", "Plans": [
          {"Node Type": "Index Only Scan", "Heap Fetches": 2},
          {"Node Type": "Seq Scan"}
        ]}
      ]
    },
    "Planning Time": 0.25,
    "Triggers": [],
    "Execution Time": 1.5
  }
])json";

TEST(ExplainSummary, AnalyzeDocument) {
    const auto s = summarize_explain(k_analyze);
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->execution_ms, 1.5);
    EXPECT_EQ(s->planning_ms, 0.25);
    EXPECT_EQ(s->total_cost, 120.5);
    EXPECT_EQ(s->node_types, (std::vector<std::string>{"Nested Loop", "Index Only Scan",
                                                       "Seq Scan"})); // distinct, DFS
    EXPECT_EQ(s->shared_hit_blocks, 40);                              // the top node's, cumulative
    EXPECT_EQ(s->shared_read_blocks, 3);
    EXPECT_EQ(s->heap_fetches, 6); // summed over every node
    EXPECT_EQ(s->rows, 10);
}

TEST(ExplainSummary, PlanOnlyHasNullTimesAndZeroBuffers) {
    const auto s = summarize_explain(
        R"([{"Plan": {"Node Type": "Seq Scan", "Total Cost": 35.5, "Plan Rows": 2550}}])");
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_FALSE(s->execution_ms);
    EXPECT_FALSE(s->planning_ms);
    EXPECT_FALSE(s->rows);
    EXPECT_EQ(s->node_types, std::vector<std::string>{"Seq Scan"});
    EXPECT_EQ(s->shared_hit_blocks, 0);
    EXPECT_EQ(s->shared_read_blocks, 0);
    EXPECT_EQ(s->heap_fetches, 0);
}

TEST(ExplainSummary, ABareObjectIsAccepted) {
    const auto s = summarize_explain(R"({"Plan": {"Node Type": "Result"}})");
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->node_types, std::vector<std::string>{"Result"});
}

TEST(ExplainSummary, NotAPlanIsAnError) {
    for (const char* text : {"", "not json", "[]", "[1]", R"([{"Plan": 3}])", R"({"Query": {}})",
                             R"([{"Execution Time": 1.0}])"}) {
        SCOPED_TRACE(text);
        const auto s = summarize_explain(text);
        ASSERT_FALSE(s);
        EXPECT_EQ(s.error().message, "EXPLAIN did not return a JSON plan");
    }
}

} // namespace
