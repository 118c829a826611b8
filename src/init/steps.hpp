// The initialization steps of pgbench 15 (d t G v p f; g lives in generate_client_side).
// Each prints its banner on stderr and stops at the first failing statement.
#pragma once

#include "init/init_session.hpp"
#include "util/result.hpp"

namespace pglab::init {

/// d: `dropping old tables...`, drop the four tables if they exist.
Status drop_tables(const InitSession& s);

/// t: `creating tables...`, the four tables, then `creating %d partitions...` if partitioned.
Status create_tables(const InitSession& s);

/// G: `generating data (server-side)...`, one transaction of INSERT ... SELECT.
Status generate_data_server_side(const InitSession& s);

/// v: `vacuuming...`, VACUUM ANALYZE of the four tables.
Status vacuum_tables(const InitSession& s);

/// p: `creating primary keys...`.
Status create_primary_keys(const InitSession& s);

/// f: `creating foreign keys...`.
Status create_foreign_keys(const InitSession& s);

} // namespace pglab::init
