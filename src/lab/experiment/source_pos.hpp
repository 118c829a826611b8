// lab/experiment: where something was written in an experiment file, and the `file:line:column:`
// prefix every experiment-file message starts with. Plain data, no I/O.
#pragma once

#include <cstdint>
#include <string>

namespace pglab::lab::experiment {

/// A position in an experiment file. `line` and `column` count from 1; 0 means unknown (a value
/// pglab made up, such as the embedded default server).
struct SourcePos {
    std::string file; ///< the path as the user gave it
    std::uint32_t line = 0;
    std::uint32_t column = 0;

    bool known() const { return line != 0; }

    bool operator==(const SourcePos&) const = default;

    /// "file:line:column", or "file" when the position is unknown.
    std::string to_string() const;

    /// The same line, `offset` characters further right (a place inside a one-line string).
    SourcePos shifted(std::uint32_t offset) const {
        SourcePos p = *this;
        if (p.known()) {
            p.column += offset;
        }
        return p;
    }
};

} // namespace pglab::lab::experiment
