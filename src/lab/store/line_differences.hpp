// lab/store: what a results.jsonl line holds that the record read from it does not. The record
// is written back (to_json) and compared with the line: a value its reader left out (a field
// this pglab does not know, an item of the wrong type) or read as something else (a number
// stored as a string, read as 0) shows as a difference, whichever reader dropped it, so that no
// reader can drop a value without a word.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace pglab::lab::store {

struct LineDifference {
    std::string path;  ///< "steps[0].probes.wal.bytes"
    std::string value; ///< the line's value there, as JSON, shortened
    /// What the record holds instead, as JSON, shortened; none when the value is left out.
    std::optional<std::string> read_as;

    /// "steps[0].probes.wal.bytes (\"12\") is not read: left out", or
    /// "settle.waited_ms is \"x\", which this pglab reads as 0".
    std::string sentence() const;
};

/// The differences between `line` and `written` (the record read from it, written back), in
/// `line`'s order. A value `written` has and `line` does not (a default for a field an older
/// pglab did not write) is none.
std::vector<LineDifference> line_differences(const nlohmann::json& line,
                                             const nlohmann::json& written);

} // namespace pglab::lab::store
