// lab/experiment: `${name}` substitution of matrix variables into step fields. Parses a field once
// (to check every name before anything runs) and expands it for one run. No I/O.
#pragma once

#include "util/result.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace pglab::lab::experiment {

/// One `${name}` in a text: the name and the offset of the `$` in the text.
struct TemplateRef {
    std::string name;
    std::size_t offset = 0;
};

/// A problem in a template: what and at which offset of the text.
struct TemplateError {
    std::string message;
    std::size_t offset = 0;
};

/// The names a text refers to, in order. `$${` is an escaped, literal `${`; a `$` not followed
/// by `{` is literal (SQL `$1` and `$$` quoting pass through). A name is letters, digits, `_`
/// and `.` (for `settings.work_mem`, `vars.foo`, `params.x`). Errors: an unclosed `${`, an
/// empty or malformed name.
std::variant<std::vector<TemplateRef>, TemplateError> template_refs(std::string_view text);

/// Looks a name up; nullopt when it is not defined.
using TemplateLookup = std::function<std::optional<std::string>(std::string_view name)>;

/// `text` with every `${name}` replaced by lookup(name) and `$${` by `${`. Error (naming the
/// variable) when a name is undefined or the text is malformed.
Result<std::string> expand_template(std::string_view text, const TemplateLookup& lookup);

} // namespace pglab::lab::experiment
