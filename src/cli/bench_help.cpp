// Help and version texts of `pglab bench`: those of the selected pgbench release, line for line,
// with pglab's own options in a section of their own unless pglab runs as `pgbench`.
#include "cli/bench_help.hpp"

#include <fmt/format.h>

namespace pglab::cli {

namespace {

// pgbench 15's usage(), cut where later releases differ.
constexpr std::string_view k_init_head = R"(Initialization options:
  -i, --initialize         invokes initialization mode
  -I, --init-steps=[dtgGvpf]+ (default "dtgvp")
)";
constexpr std::string_view k_init_steps_15 =
    R"(                           run selected initialization steps
)";
constexpr std::string_view k_init_steps_18 =
    R"(                           run selected initialization steps, in the specified order
                           d: drop any existing pgbench tables
                           t: create the tables used by the standard pgbench scenario
                           g: generate data, client-side
                           G: generate data, server-side
                           v: invoke VACUUM on the standard tables
                           p: create primary key indexes on the standard tables
                           f: create foreign keys between the standard tables
)";
constexpr std::string_view k_bench_options = R"(  -F, --fillfactor=NUM     set fill factor
  -n, --no-vacuum          do not run VACUUM during initialization
  -q, --quiet              quiet logging (one message each 5 seconds)
  -s, --scale=NUM          scaling factor
  --foreign-keys           create foreign key constraints between tables
  --index-tablespace=TABLESPACE
                           create indexes in the specified tablespace
  --partition-method=(range|hash)
                           partition pgbench_accounts with this method (default: range)
  --partitions=NUM         partition pgbench_accounts into NUM parts (default: 0)
  --tablespace=TABLESPACE  create tables in the specified tablespace
  --unlogged-tables        create tables as unlogged tables

Options to select what to run:
  -b, --builtin=NAME[@W]   add builtin script NAME weighted at W (default: 1)
                           (use "-b list" to list available scripts)
  -f, --file=FILENAME[@W]  add script FILENAME weighted at W (default: 1)
  -N, --skip-some-updates  skip updates of pgbench_tellers and pgbench_branches
                           (same as "-b simple-update")
  -S, --select-only        perform SELECT-only transactions
                           (same as "-b select-only")

Benchmarking options:
  -c, --client=NUM         number of concurrent database clients (default: 1)
  -C, --connect            establish new connection for each transaction
  -D, --define=VARNAME=VALUE
                           define variable for use by custom script
  -j, --jobs=NUM           number of threads (default: 1)
  -l, --log                write transaction times to log file
  -L, --latency-limit=NUM  count transactions lasting more than NUM ms as late
  -M, --protocol=simple|extended|prepared
                           protocol for submitting queries (default: simple)
  -n, --no-vacuum          do not run VACUUM before tests
  -P, --progress=NUM       show thread progress report every NUM seconds
  -r, --report-per-command report latencies, failures, and retries per command
  -R, --rate=NUM           target rate in transactions per second
  -s, --scale=NUM          report this scale factor in output
  -t, --transactions=NUM   number of transactions each client runs (default: 10)
  -T, --time=NUM           duration of benchmark test in seconds
  -v, --vacuum-all         vacuum all four standard tables before tests
)";
constexpr std::string_view k_aggregate_interval =
    R"(  --aggregate-interval=NUM aggregate data over NUM seconds
)";
constexpr std::string_view k_more_bench_options =
    R"(  --failures-detailed      report the failures grouped by basic types
  --log-prefix=PREFIX      prefix for transaction time log file
                           (default: "pgbench_log")
  --max-tries=NUM          max number of tries to run transaction (default: 1)
  --progress-timestamp     use Unix epoch timestamps for progress
  --random-seed=SEED       set random seed ("time", "rand", integer)
  --sampling-rate=NUM      fraction of transactions to log (e.g., 0.01 for 1%)
  --show-script=NAME       show builtin script code, then exit
  --verbose-errors         print messages of all errors

Common options:
)";
constexpr std::string_view k_continue_on_error_19 =
    "  --continue-on-error      continue running after an SQL error\n";
constexpr std::string_view k_exit_on_abort_17 =
    "  --exit-on-abort          exit when any client is aborted\n";
constexpr std::string_view k_debug_15 = R"(  -d, --debug              print debugging output
)";
constexpr std::string_view k_debug_dbname_17 =
    R"(  --debug                  print debugging output
  -d, --dbname=DBNAME      database name to connect to
)";
constexpr std::string_view k_common_options =
    R"(  -h, --host=HOSTNAME      database server host or socket directory
  -p, --port=PORT          database server port number
  -U, --username=USERNAME  connect as specified database user
  -V, --version            output version information, then exit
  -?, --help               show this help, then exit
)";
constexpr std::string_view k_pgbench_footer = R"(
Report bugs to <pgsql-bugs@lists.postgresql.org>.
PostgreSQL home page: <https://www.postgresql.org/>
)";

constexpr std::string_view k_pglab_options = R"(
pglab options:
  --pgbench-version=15|16|17|18|19
                           behave as this pgbench release: options, messages,
                           report (default: 18, or $PGLAB_PGBENCH_VERSION)
  --percentiles            print latency percentiles (p50 to max) after the report
  --export-json=FILE       write the results as JSON (schema pglab.bench/1) to FILE
  --export-csv=FILE        write a one-line CSV summary of the results to FILE
  --log-last-interval      with --aggregate-interval, also log each thread's last,
                           partial interval (pgbench drops it)
  --no-pin-threads         leave worker threads unpinned (default: one CPU each)
  --io-uring               batch the socket I/O of every thread through io_uring,
                           one system call per wait (default: of a thread of 4 to
                           16 clients; or $PGLAB_IO_URING: auto, always, never)
  --no-io-uring            let libpq send and receive on each socket itself

Through a link named "pgbench", pglab is pgbench: this section is not printed then.
Report bugs to the pglab maintainers.
PostgreSQL home page: <https://www.postgresql.org/>
)";

} // namespace

std::string bench_help_text(const compat::PgbenchProfile& profile, std::string_view program,
                            bool as_pgbench) {
    std::string out = fmt::format("{} is a benchmarking tool for PostgreSQL.\n\nUsage:\n  {} "
                                  "[OPTION]... [DBNAME]\n\n",
                                  program, program);
    out += k_init_head;
    out += profile.help_lists_init_steps ? k_init_steps_18 : k_init_steps_15;
    out += k_bench_options;
    out += k_aggregate_interval;
    if (profile.continue_on_error) {
        out += k_continue_on_error_19;
    }
    if (profile.exit_on_abort) {
        out += k_exit_on_abort_17;
    }
    out += k_more_bench_options;
    out += profile.dbname_short_option ? k_debug_dbname_17 : k_debug_15;
    out += k_common_options;
    out += as_pgbench ? k_pgbench_footer : k_pglab_options;
    return out;
}

std::string bench_version_text(const compat::PgbenchProfile& profile) {
    // pgbench's line, byte for byte: harnesses parse it. `pglab --version` names pglab's own.
    return fmt::format("pgbench (PostgreSQL) {}\n", profile.release);
}

} // namespace pglab::cli
