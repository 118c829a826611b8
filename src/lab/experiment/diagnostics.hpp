// lab/experiment: collects every problem found in an experiment file (`file:line:column: message`
// plus a one-line fix hint) so that one run of the parser reports them all, then turns them into
// one Error. No I/O.
#pragma once

#include "lab/experiment/source_pos.hpp"
#include "util/result.hpp"

#include <string>
#include <vector>

namespace pglab::lab::experiment {

/// One problem in an experiment file.
struct Diagnostic {
    SourcePos pos;
    std::string message; ///< lowercase, no final period, names in double quotes
    std::string hint;    ///< one line saying how to fix it; may be empty

    /// "file:line:column: message".
    std::string headline() const { return pos.to_string() + ": " + message; }
};

/// The problems found so far, in the order they were found.
class Diagnostics {
public:
    /// The most problems kept; more are counted but not stored (a fuzzer's file can have
    /// millions).
    static constexpr std::size_t k_max_kept = 50;

    void add(SourcePos pos, std::string message, std::string hint = {});

    bool empty() const { return m_count == 0; }

    std::size_t count() const { return m_count; }

    const std::vector<Diagnostic>& items() const { return m_items; }

    /// One Error: the first problem as message and hint; the others, one per line with their
    /// hints, in `trailer`.
    Error to_error() const;

private:
    std::vector<Diagnostic> m_items;
    std::size_t m_count = 0;
};

} // namespace pglab::lab::experiment
