// What differs between the pgbench releases pglab speaks as (15 to 19), as data. Options,
// scripts, initialisation and output consult one profile; the engine never compares version
// numbers itself. Each flag names the release that introduced the behaviour.
#pragma once

#include <optional>
#include <string_view>

namespace pglab::compat {

struct PgbenchProfile {
    int major = 0;
    /// The release whose pgbench pglab speaks as: its PG_VERSION ("18.6") for the banner and
    /// -V, and PG_VERSION_NUM (180006) to compare with the server's in the banner.
    std::string_view release;
    int version_num = 0;

    // Options
    bool dbname_short_option = false;    ///< 17: -d is -d/--dbname=DBNAME; --debug is long-only
    bool exit_on_abort = false;          ///< 17: --exit-on-abort
    bool client_option_singular = false; ///< 18: -c named "-c/--client" (before: "-c/--clients")
    bool raises_open_files = false; ///< 18: the soft RLIMIT_NOFILE is raised up to the hard one
    /// 19: --continue-on-error; "other" failures (SQL errors other than serialization and
    /// deadlock) in the reports and logs, the aggregate log's third failure column
    bool continue_on_error = false;

    // Scripts
    bool syncpipeline = false; ///< 17: \syncpipeline

    // Initialisation and set-up
    bool copy_every_table = false; ///< 17: -i's client-side generation COPYs all three tables
                                   ///< and its progress lines name the table
    bool quoted_guc_names = false; ///< 17: messages quote GUC names ("search_path")
    bool unlogged_main_tables_when_partitioned = true; ///< 18: false, the four tables stay logged

    // Report and help
    bool per_script_processed_line = false;    ///< 18: per-script counts with failures and a
                                               ///< separate "actually processed (tps)" line
    bool report_ends_when_nothing_ran = false; ///< 18: no failure lines when nothing ran
    bool narrow_command_lines = false;         ///< 18: -r lines: one space before the text
    bool help_lists_init_steps = false;        ///< 18: --help explains each -I step
};

/// The pgbench major version used when none is selected: the newest release.
constexpr int k_default_pgbench_major = 18;

/// The environment variable that selects the version when --pgbench-version is not given.
constexpr std::string_view k_pgbench_version_env = "PGLAB_PGBENCH_VERSION";

/// The profile of pgbench `major`; nullptr unless 15 <= major <= 19.
const PgbenchProfile* find_pgbench_profile(int major);

/// The profile of the default version (k_default_pgbench_major).
const PgbenchProfile& default_pgbench_profile();

/// "15" to "19" (an optional ".N" minor is accepted and ignored); nullopt otherwise.
std::optional<int> parse_pgbench_major(std::string_view text);

} // namespace pglab::compat
