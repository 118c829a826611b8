// lab/store: a StepRecord to and from its step object of a results.jsonl line
// (docs/results-format.md, "Step objects"). The common fields, then each kind's own by the struct
// of its kind; a step of a kind this pglab does not know keeps its own fields as they were.
#pragma once

#include "lab/store/step_record.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>

namespace pglab::lab::store {

/// The step object.
nlohmann::json to_json(const StepRecord& step);

/// The step object at `position` of a line's `steps` back as a StepRecord. Error when it is not
/// an object or its status is unknown; a field of another type than the format's reads as
/// absent.
Result<StepRecord> step_from_json(const nlohmann::json& step, std::size_t position);

} // namespace pglab::lab::store
