// util: text for messages and other languages: long values shortened, so that a 100 MB matrix
// value or a key of 100,000 characters does not flood a terminal or a log, and quoted literals.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::util {

/// Values longer than this are shortened by shorten() and shorten_quoted().
constexpr std::size_t k_shown_chars = 200;

/// `text` itself when it has at most `max` characters (bytes); else its first `max` - 20 bytes
/// (cut on a UTF-8 character boundary), "…" and "(N characters)".
std::string shorten(std::string_view text, std::size_t max = k_shown_chars);

/// The items with `separator` between them.
std::string join(const std::vector<std::string>& items, std::string_view separator);

/// The first line of `text`, without its newline (a server error's message without its
/// DETAIL and HINT lines).
std::string first_line(std::string_view text);

/// `text` without the white space (isspace) at its ends.
std::string_view trim(std::string_view text);

/// `text` with its ASCII letters in lower case (setting names, as PostgreSQL folds them).
std::string ascii_lower(std::string_view text);

/// `message` with every double-quoted part longer than `max` shortened as shorten() does, and
/// the whole kept under 50 × `max` (a message of unquoted values is cut at its end).
std::string shorten_quoted(std::string_view message, std::size_t max = k_shown_chars);

/// `text` between two `quote` characters, each `quote` in it doubled: a literal of SQL ('),
/// CSV (") or gnuplot (').
std::string doubling_quoted(std::string_view text, char quote);

} // namespace pglab::util
