// options: pgbench's long option tables and pglab's (bench_option_table.hpp).
#include "options/bench_option_table.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace pglab::options::detail {

using namespace option_codes;

namespace {

/// pgbench's long options, in its table's order: getopt_long lists the candidates of an
/// ambiguous abbreviation in that order. The fourth entry is where 17 put --dbname in place of
/// --debug.
constexpr option k_pgbench_long_options_head[] = {
    {"builtin", required_argument, nullptr, 'b'},
    {"client", required_argument, nullptr, 'c'},
    {"connect", no_argument, nullptr, 'C'},
};

constexpr option k_pgbench_long_options_tail[] = {
    {"define", required_argument, nullptr, 'D'},
    {"file", required_argument, nullptr, 'f'},
    {"fillfactor", required_argument, nullptr, 'F'},
    {"host", required_argument, nullptr, 'h'},
    {"initialize", no_argument, nullptr, 'i'},
    {"init-steps", required_argument, nullptr, 'I'},
    {"jobs", required_argument, nullptr, 'j'},
    {"log", no_argument, nullptr, 'l'},
    {"latency-limit", required_argument, nullptr, 'L'},
    {"no-vacuum", no_argument, nullptr, 'n'},
    {"port", required_argument, nullptr, 'p'},
    {"progress", required_argument, nullptr, 'P'},
    {"protocol", required_argument, nullptr, 'M'},
    {"quiet", no_argument, nullptr, 'q'},
    {"report-per-command", no_argument, nullptr, 'r'},
    {"rate", required_argument, nullptr, 'R'},
    {"scale", required_argument, nullptr, 's'},
    {"select-only", no_argument, nullptr, 'S'},
    {"skip-some-updates", no_argument, nullptr, 'N'},
    {"time", required_argument, nullptr, 'T'},
    {"transactions", required_argument, nullptr, 't'},
    {"username", required_argument, nullptr, 'U'},
    {"vacuum-all", no_argument, nullptr, 'v'},
    {"unlogged-tables", no_argument, nullptr, unlogged_tables},
    {"tablespace", required_argument, nullptr, tablespace},
    {"index-tablespace", required_argument, nullptr, index_tablespace},
    {"sampling-rate", required_argument, nullptr, sampling_rate},
    {"aggregate-interval", required_argument, nullptr, aggregate_interval},
    {"progress-timestamp", no_argument, nullptr, progress_timestamp},
    {"log-prefix", required_argument, nullptr, log_prefix},
    {"foreign-keys", no_argument, nullptr, foreign_keys},
    {"random-seed", required_argument, nullptr, random_seed},
    {"show-script", required_argument, nullptr, show_script},
    {"partitions", required_argument, nullptr, partitions},
    {"partition-method", required_argument, nullptr, partition_method},
    {"failures-detailed", no_argument, nullptr, failures_detailed},
    {"max-tries", required_argument, nullptr, max_tries},
    {"verbose-errors", no_argument, nullptr, verbose_errors},
};

/// pglab's own options, after pgbench's.
constexpr option k_pglab_long_options[] = {
    {"export-json", required_argument, nullptr, export_json},
    {"export-csv", required_argument, nullptr, export_csv},
    {"no-pin-threads", no_argument, nullptr, no_pin_threads},
    {"no-io-uring", no_argument, nullptr, no_io_uring},
    {"io-uring", no_argument, nullptr, force_io_uring},
    {"percentiles", no_argument, nullptr, percentiles},
    {"log-last-interval", no_argument, nullptr, log_last_interval},
    {"pgbench-version", required_argument, nullptr, pgbench_version},
};

/// Whether `args` spell out pglab's option `name` in full (`--name` or `--name=...`).
bool spelt_out(const std::vector<std::string>& args, std::string_view name) {
    return std::any_of(args.begin(), args.end(), [name](const std::string& arg) {
        const std::string_view a = arg;
        return a.starts_with("--") && a.substr(2, name.size()) == name
               && (a.size() == name.size() + 2 || a[name.size() + 2] == '=');
    });
}

} // namespace

std::vector<option> long_options_for(const compat::PgbenchProfile& profile,
                                     const std::vector<std::string>& args) {
    std::vector<option> out(std::begin(k_pgbench_long_options_head),
                            std::end(k_pgbench_long_options_head));
    if (profile.dbname_short_option) {
        out.push_back({"dbname", required_argument, nullptr, 'd'});
    } else {
        out.push_back({"debug", no_argument, nullptr, 'd'});
    }
    out.insert(out.end(), std::begin(k_pgbench_long_options_tail),
               std::end(k_pgbench_long_options_tail));
    if (profile.exit_on_abort) {
        out.push_back({"exit-on-abort", no_argument, nullptr, exit_on_abort});
    }
    if (profile.dbname_short_option) {
        out.push_back({"debug", no_argument, nullptr, debug});
    }
    if (profile.continue_on_error) {
        out.push_back({"continue-on-error", no_argument, nullptr, continue_on_error});
    }
    for (const option& o : k_pglab_long_options) {
        if (spelt_out(args, o.name)) {
            out.push_back(o);
        }
    }
    out.push_back({nullptr, 0, nullptr, 0});
    return out;
}

} // namespace pglab::options::detail
