// The texts of `pglab bench --help` and `pglab bench --version`.
#pragma once

#include <string>
#include <string_view>

namespace pglab::cli {

/// pgbench 15's --help with pglab's additions (--dbname, --exit-on-abort); same sections.
std::string_view bench_help_text();

/// `pgbench (PostgreSQL) <libpq version> (pglab <version>)`, newline-terminated, so that
/// scripts matching pgbench's `-V` output keep working.
std::string bench_version_text();

} // namespace pglab::cli
