// options: the option tables of `pglab bench` as getopt_long reads them: pgbench's short options
// of each release, its long options in its own table's order (getopt lists an ambiguous
// abbreviation's candidates in that order), and pglab's own, which take part only when spelt out.
#pragma once

#include <getopt.h>

#include <string>
#include <vector>

#include "compat/pgbench_profile.hpp"

namespace pglab::options::detail {

/// The short options up to 16 (-d is --debug) and from 17 (-d takes the database name).
inline constexpr const char* k_short_options_15 = "iI:h:nvp:dqb:SNc:j:Crs:t:T:U:lf:D:F:M:P:R:L:";
inline constexpr const char* k_short_options_17 = "b:c:Cd:D:f:F:h:iI:j:lL:M:nNp:P:qrR:s:St:T:U:v";

namespace option_codes {

/// Codes of long-only options (above any char).
enum LongOnly : int {
    unlogged_tables = 256,
    tablespace,
    index_tablespace,
    sampling_rate,
    aggregate_interval,
    progress_timestamp,
    log_prefix,
    foreign_keys,
    random_seed,
    show_script,
    partitions,
    partition_method,
    failures_detailed,
    max_tries,
    verbose_errors,
    exit_on_abort,
    debug,
    continue_on_error,
    export_json,
    export_csv,
    no_pin_threads,
    no_io_uring,
    force_io_uring,
    percentiles,
    log_last_interval,
    pgbench_version,
};

} // namespace option_codes

/// The long option table of `profile` for `args`, ended by the all-zero entry getopt_long needs.
/// pglab's own options take part only when spelt out in full: an abbreviation or a typo then
/// meets getopt's message of pgbench's table, byte for byte ("unrecognized option '--ex'"
/// rather than an ambiguity between pglab's --export-json and --export-csv).
std::vector<option> long_options_for(const compat::PgbenchProfile& profile,
                                     const std::vector<std::string>& args);

} // namespace pglab::options::detail
