// lab/experiment: the values of an experiment file that libpq may read as a connection string (and
// so may hold a password), rewritten in the file's own text: the copy kept with the results gets
// them with their passwords masked and every other byte as written. Knows nothing of libpq: the
// caller says how to rewrite one connection string (pg::redact_conninfo).
#pragma once

#include "util/result.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace pglab::lab::experiment {

/// Rewrites one connection string (key=value pairs or a URI), e.g. masks its password.
using ConnectionStringRewrite = std::function<std::string(const std::string&)>;

/// `text` (an experiment file) with `rewrite` applied to each string value that libpq may read
/// as a connection string: `conninfo` of `[servers.NAME]`, `database` of `[sessions.NAME]` (a
/// database name, or a conninfo when it holds `=`), and each item of a step's `options` (the
/// database argument of `init` and `bench` may be a conninfo or a URI). A value that `rewrite`
/// changes is written again as a TOML string in place of its literal (a '...' literal string
/// when it was one and can stay one, else a "..." basic string, so a multi-line string becomes
/// one line); every other byte is kept. Error when `text` is not valid TOML, or (a bug) when
/// the rewritten text does not read back as the rewritten values.
Result<std::string> rewrite_connection_strings(std::string_view text,
                                               const ConnectionStringRewrite& rewrite);

} // namespace pglab::lab::experiment
