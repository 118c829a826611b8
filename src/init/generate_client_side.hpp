// Step g of pgbench -i: branches and tellers by INSERT, accounts by COPY FROM STDIN, with
// pgbench 15's progress lines on stderr.
#pragma once

#include "init/init_session.hpp"
#include "util/result.hpp"

namespace pglab::init {

/// `generating data (client-side)...`, then one transaction: truncate, INSERT branches and
/// tellers, COPY accounts. Progress every 100000 rows, or every 5 s with -q.
Status generate_data_client_side(const InitSession& s);

} // namespace pglab::init
