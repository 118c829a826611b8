// What pgbench 15 checks after its getopt loop, in its order (PGBENCH.md §1.2 "Order of option
// validation"), and the assembly of the init or run configuration.
#include "script/loader.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "options/bench_parse_state.hpp"

namespace pglab::options::detail {

namespace {

/// The database name: --dbname, else the first positional argument, else $PGDATABASE, $PGUSER,
/// the OS user. Consumes the positional argument it uses.
Result<std::string> resolve_dbname(BenchParseState& state, const BenchParseEnv& env,
                                   size_t& next_positional) {
    if (state.dbname) {
        return *state.dbname;
    }
    if (next_positional < state.positional.size()) {
        return state.positional[next_positional++];
    }
    for (const char* name : {"PGDATABASE", "PGUSER"}) {
        auto value = env.getenv(name);
        if (value && !value->empty()) {
            return *value;
        }
    }
    return env.os_user();
}

/// -i: the mode check, partition checks, default steps, -n and --foreign-keys.
Status finish_init(BenchParseState& state) {
    if (state.benchmarking_option_set) {
        return make_error("some of the specified options cannot be used in initialization (-i) "
                          "mode");
    }
    auto& init = state.out.init;
    if (state.partitions == 0 && init.partition_method != init::PartitionMethod::none) {
        return make_error("--partition-method requires greater than zero --partitions");
    }
    if (state.partitions > 0 && init.partition_method == init::PartitionMethod::none) {
        init.partition_method = init::PartitionMethod::range;
    }
    init.partitions = state.partitions;
    init.scale = state.scale;
    init.steps = state.init_steps.value_or("dtgvp");
    if (state.no_vacuum) {
        std::replace(init.steps.begin(), init.steps.end(), 'v', ' ');
    }
    if (state.foreign_keys && init.steps.find('f') == std::string::npos) {
        init.steps += 'f';
    }
    init.conn = state.out.run.conn;
    state.out.action = BenchAction::initialize;
    return {};
}

/// The log, aggregation, progress and tries options that only make sense together, in
/// pgbench's order.
Status check_log_options(const BenchParseState& state) {
    if (state.sample_rate > 0.0 && !state.use_log) {
        return make_error(
            "log sampling (--sampling-rate) is allowed only when logging transactions (-l)");
    }
    if (state.sample_rate > 0.0 && state.agg_interval > 0) {
        return make_error("log sampling (--sampling-rate) and aggregation (--aggregate-interval) "
                          "cannot be used at the same time");
    }
    if (state.agg_interval > 0 && !state.use_log) {
        return make_error("log aggregation is allowed only when actually logging transactions");
    }
    if (!state.use_log && state.log_prefix) {
        return make_error(
            "log file prefix (--log-prefix) is allowed only when logging transactions (-l)");
    }
    if (state.duration > 0 && state.agg_interval > state.duration) {
        return make_error(fmt::format("number of seconds for aggregation ({}) must not be higher "
                                      "than test duration ({})",
                                      state.agg_interval, state.duration));
    }
    if (state.duration > 0 && state.agg_interval > 0 && state.duration % state.agg_interval != 0) {
        return make_error(fmt::format("duration ({}) must be a multiple of aggregation interval "
                                      "({})",
                                      state.duration, state.agg_interval));
    }
    if (state.out.run.progress_timestamp && state.progress == 0) {
        return make_error("--progress-timestamp is allowed only under --progress");
    }
    if (state.max_tries == 0 && state.latency_limit_us == 0 && state.duration <= 0) {
        return make_error("an unlimited number of transaction tries can only be used with "
                          "--latency-limit or a duration (-T)");
    }
    return {};
}

/// Benchmark mode: the mode check, then -t/-T and the log/progress/tries checks.
Status finish_run(BenchParseState& state) {
    if (state.initialization_option_set) {
        return make_error("some of the specified options cannot be used in benchmarking mode");
    }
    if (state.transactions > 0 && state.duration > 0) {
        return make_error(
            "specify either a number of transactions (-t) or a duration (-T), not both");
    }
    auto& run = state.out.run;
    run.transactions = state.transactions;
    run.duration_s = state.duration;
    if (state.transactions <= 0 && state.duration <= 0) {
        run.transactions = 10;
    }
    PGLAB_TRY(check_log_options(state));
    run.no_vacuum = state.no_vacuum;
    run.scale = state.scale;
    run.scale_given = state.scale_given;
    run.progress_s = state.progress;
    run.latency_limit_us = state.latency_limit_us;
    run.max_tries = state.max_tries;
    run.log_transactions = state.use_log;
    if (state.log_prefix) {
        run.log_prefix = *state.log_prefix;
    }
    run.sampling_rate = state.sample_rate;
    run.aggregate_interval_s = state.agg_interval;
    run.debug = state.out.debug;
    run.uses_builtin = state.internal_script_used;
    state.out.action = BenchAction::benchmark;
    return {};
}

} // namespace

Status add_builtin_script(BenchParseState& state, std::string_view name, int weight) {
    PGLAB_TRY_ASSIGN(const script::BuiltinScript* builtin, script::find_builtin(name));
    auto& scripts = state.out.run.scripts;
    PGLAB_TRY(scripts.add(builtin->desc, builtin->desc, builtin->text, weight));
    if (scripts.scripts().size() > 128) {
        return make_error("at most 128 SQL scripts are allowed");
    }
    state.internal_script_used = true;
    return {};
}

Status finish_bench_options(BenchParseState& state, const BenchParseEnv& env) {
    auto& run = state.out.run;
    if (run.scripts.scripts().empty() && !state.init_mode) {
        PGLAB_TRY(add_builtin_script(state, "tpcb-like", 1));
        state.benchmarking_option_set = true;
    }
    PGLAB_TRY(run.scripts.compile(run.query_mode));
    if (run.scripts.total_weight() == 0 && !state.init_mode) {
        return make_error("total script weight must not be zero");
    }
    run.threads = std::min(run.threads, run.clients);

    size_t next_positional = 0;
    PGLAB_TRY_ASSIGN(run.conn.dbname, resolve_dbname(state, env, next_positional));
    if (next_positional < state.positional.size()) {
        return make_error(Error(fmt::format("too many command-line arguments (first is \"{}\")",
                                            state.positional[next_positional]))
                              .with_hint(bench_try_help()));
    }
    if (state.init_mode) {
        return finish_init(state);
    }
    return finish_run(state);
}

} // namespace pglab::options::detail
