// lab/experiment: the small boolean language of matrix filters and step `when` conditions, such as
// `clients <= 8 && settings.fsync == "off"` or `!(server == "pg16" || params.index)`. Parsing
// and evaluation only; names are resolved by the caller. No I/O.
#pragma once

#include "lab/experiment/scalar.hpp"
#include "util/result.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::experiment {

struct FilterNode;

/// A parsed expression. Grammar (lowest precedence first):
///     or   := and { ("||" | "or") and }
///     and  := not { ("&&" | "and") not }
///     not  := ("!" | "not") not | cmp
///     cmp  := atom [ ("==" | "!=" | "<" | "<=" | ">" | ">=") atom ]
///     atom := integer | float | "string" | 'string' | true | false | name | "(" or ")"
/// A name is letters, digits, `_` and `.` starting with a letter (`clients`,
/// `settings.shared_buffers`). Numbers compare numerically (1 == 1.0); strings and booleans
/// compare with == and != only, strings also by byte order; values of different kinds are never
/// equal. A bare name or literal used as a condition must be a boolean.
class FilterExpr {
public:
    /// Parses `text`. On error, `error_offset` receives the offset in `text` of the problem.
    static Result<FilterExpr> parse(std::string_view text, std::size_t* error_offset = nullptr);

    /// The source text as written.
    const std::string& text() const { return m_text; }

    /// Every name used, with the offset of its first character in text(), in order.
    const std::vector<std::pair<std::string, std::size_t>>& names() const { return m_names; }

    using Lookup = std::function<std::optional<Scalar>(std::string_view name)>;

    /// True or false for the values `lookup` gives. Error for an undefined name, an ordering
    /// comparison of non-numbers of different kinds, or a non-boolean condition.
    Result<bool> evaluate(const Lookup& lookup) const;

private:
    std::string m_text;
    std::shared_ptr<const FilterNode> m_root;
    std::vector<std::pair<std::string, std::size_t>> m_names;
};

} // namespace pglab::lab::experiment
