// Reads a password from the terminal without echo, as PostgreSQL's simple_prompt does.
#pragma once

#include <string>
#include <string_view>

namespace pglab::pg {

/// Writes `prompt` to /dev/tty (stderr when there is no terminal), reads one line with echo
/// off and returns it without the newline. Returns "" when nothing can be read.
std::string prompt_password(std::string_view prompt);

} // namespace pglab::pg
