// The open-files check of `-c`: every client needs a socket, plus three for stdio.
#pragma once

#include "util/result.hpp"

namespace pglab::options {

/// Makes sure RLIMIT_NOFILE allows `clients` + 3 open files. With `raise_soft_limit` (pgbench
/// 18) the soft limit is raised up to the hard limit if needed; without (15 to 17) the soft limit
/// must already allow them. Errors (exit 1), each with hint `Reduce number of clients, or use
/// limit/ulimit to increase the system limit.`: `need at least N open files, but system limit
/// is L` (L = the hard limit, or the soft one without raising); `need at least N open files, but
/// couldn't raise the limit: %m`; `getrlimit failed: %m`. N is computed in int as pgbench does
/// (it wraps for huge `clients`).
Status ensure_open_files(int clients, bool raise_soft_limit);

} // namespace pglab::options
