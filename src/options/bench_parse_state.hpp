// Private to bench_options*.cpp: what the getopt loop gathers before pgbench's final checks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "options/bench_options.hpp"

namespace pglab::options::detail {

/// pgbench's main() locals and globals between getopt and the checks that follow it.
struct BenchParseState {
    BenchOptions out;
    bool init_mode = false;                 ///< -i
    bool benchmarking_option_set = false;   ///< some option only valid when benchmarking
    bool initialization_option_set = false; ///< some option only valid with -i
    bool foreign_keys = false;              ///< --foreign-keys
    bool no_vacuum = false;                 ///< -n (both modes)
    bool scale_given = false;               ///< -s
    bool internal_script_used = false;      ///< -b, -N, -S or the default script
    bool use_log = false;                   ///< -l
    std::optional<std::string> init_steps;  ///< -I, validated
    std::optional<std::string> log_prefix;  ///< --log-prefix
    std::optional<std::string> dbname;      ///< --dbname (takes precedence over the positional)
    int scale = 1;                          ///< -s
    int transactions = 0;                   ///< -t, 0 = not given
    int duration = 0;                       ///< -T, 0 = not given
    int progress = 0;                       ///< -P
    int agg_interval = 0;                   ///< --aggregate-interval
    int partitions = 0;                     ///< --partitions
    double sample_rate = 0;                 ///< --sampling-rate
    int64_t latency_limit_us = 0;           ///< -L
    uint32_t max_tries = 1;                 ///< --max-tries
    std::vector<std::string> positional;    ///< non-option arguments, in order
};

/// Everything pgbench does after its getopt loop: default script, compiling for the query mode,
/// weight/thread/dbname/argument checks, mode checks, -t/-T and log option checks; fills
/// `state.out.run` or `state.out.init`.
Status finish_bench_options(BenchParseState& state, const BenchParseEnv& env);

/// Adds the builtin script `name` (after the weight was split off) to the run's scripts.
Status add_builtin_script(BenchParseState& state, std::string_view name, int weight);

} // namespace pglab::options::detail
