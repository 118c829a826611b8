// The texts of `pglab bench --help` and `pglab bench --version`.
#pragma once

#include <string>
#include <string_view>

#include "compat/pgbench_profile.hpp"

namespace pglab::cli {

/// The --help of `profile`'s pgbench, naming the program `program` ("pgbench", "pglab bench").
/// `as_pgbench` (pglab runs through a link named pgbench): pgbench's text byte for byte;
/// otherwise pglab's options and footer replace pgbench's footer.
std::string bench_help_text(const compat::PgbenchProfile& profile, std::string_view program,
                            bool as_pgbench);

/// `pgbench (PostgreSQL) <release>`, newline-terminated: pgbench's -V line, byte for byte.
std::string bench_version_text(const compat::PgbenchProfile& profile);

} // namespace pglab::cli
