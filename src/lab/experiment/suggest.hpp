// lab/experiment: "did you mean" suggestions for misspelt names (keys, step types, servers...).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::experiment {

/// The candidate closest to `word` by edit distance (insertions, deletions, substitutions and
/// swaps of neighbours, case-insensitive), or "" when none is close enough: at most a third of
/// the longer word's length, and at least 1.
std::string closest_name(std::string_view word, const std::vector<std::string>& candidates);

/// " (did you mean "x"?)" for the closest candidate, or "" when there is none.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

/// "a", "b" or "c" (quoted, for hints listing the allowed values); `last` replaces " or ".
std::string quoted_list(const std::vector<std::string>& names, std::string_view last = " or ");

} // namespace pglab::lab::experiment
