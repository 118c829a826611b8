// lab/run: the summary of an `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)` document that results.jsonl
// keeps for an explain step (docs/results-format.md). Pure.
#pragma once

#include "lab/store/step_record.hpp"
#include "util/result.hpp"

#include <string_view>

namespace pglab::lab::run {

/// The summary of the text of EXPLAIN ... FORMAT JSON (an array of one object with a "Plan").
/// Node types are distinct, in depth-first plan order; buffers are the top node's (cumulative);
/// heap fetches are summed over every node. Error when the text is not such a document.
Result<store::ExplainSummary> summarize_explain(std::string_view explain_json);

} // namespace pglab::lab::run
