// lab/store: an experiment's claims as plan.json keeps them, so that the report judges the claims
// the run was made for without reading the experiment file again (docs/results-format.md).
#pragma once

#include "lab/experiment/experiment_spec.hpp"

#include <nlohmann/json.hpp>

#include <optional>

namespace pglab::lab::store {

/// A claim's object in plan.json: every field of experiment::Claim but its position in the file,
/// its cell selectors as their text and their NAME, VALUE items.
nlohmann::json claim_json(const experiment::Claim& claim);

/// The claim of a plan.json object; nullopt when it is not an object. Fields of another type
/// read as absent; a kind this pglab does not know (a newer one wrote it) gives a claim that says
/// so as the reason it cannot be tested.
std::optional<experiment::Claim> claim_from_json(const nlohmann::json& j);

} // namespace pglab::lab::store
