// pgbench -i: runs the initialization steps dtgGvpf against one connection, with pgbench's
// stderr messages and timings.
#pragma once

#include "init/init_options.hpp"
#include "util/result.hpp"

namespace pglab::init {

/// Connects and runs every step of `options.steps`. Errors (exit 1): `could not create
/// connection for initialization`, `query failed: <libpq msg>` with detail `Query was: <sql>`.
Status initialize(InitOptions options);

} // namespace pglab::init
