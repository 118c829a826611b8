// The five profiles. Sources: each release's pgbench.c and release notes (15.18 and 18.6 read
// line by line; 16 and 17 from their release notes and the commits between them; 19 from
// upstream's pgbench.c with --continue-on-error, commit 0ab208fa5, until 19's binaries are a
// reference here).
#include "compat/pgbench_profile.hpp"

#include <pg_config.h>

#include <array>
#include <charconv>

namespace pglab::compat {

namespace {

/// The release pglab speaks as for `major`: the version of the libpq it is built with when the
/// majors agree (so that the banner is the installed pgbench's, "15.18 (Debian ...)"), else
/// the newest release of that major this profile was checked against.
constexpr std::string_view release_of(int major, std::string_view newest) {
    return PG_MAJORVERSION_NUM == major ? std::string_view(PG_VERSION) : newest;
}

constexpr int version_num_of(int major, int newest) {
    return PG_MAJORVERSION_NUM == major ? PG_VERSION_NUM : newest;
}

/// `base` as release `newest` (version number `newest_num`) of `major`: what a major changed
/// is then set on the result.
constexpr PgbenchProfile as_major(PgbenchProfile base, int major, std::string_view newest,
                                  int newest_num) {
    base.major = major;
    base.release = release_of(major, newest);
    base.version_num = version_num_of(major, newest_num);
    return base;
}

constexpr PgbenchProfile make_15() {
    return as_major(PgbenchProfile{}, 15, "15.18", 150018);
}

/// 16 changed nothing a user of pgbench sees (the shell-failure message aside).
constexpr PgbenchProfile make_16() {
    return as_major(make_15(), 16, "16.14", 160014);
}

constexpr PgbenchProfile make_17() {
    PgbenchProfile p = as_major(make_16(), 17, "17.10", 170010);
    p.dbname_short_option = true;
    p.exit_on_abort = true;
    p.syncpipeline = true;
    p.copy_every_table = true;
    p.quoted_guc_names = true;
    return p;
}

constexpr PgbenchProfile make_18() {
    PgbenchProfile p = as_major(make_17(), 18, "18.6", 180006);
    p.client_option_singular = true;
    p.raises_open_files = true;
    p.unlogged_main_tables_when_partitioned = false;
    p.per_script_processed_line = true;
    p.report_ends_when_nothing_ran = true;
    p.narrow_command_lines = true;
    p.help_lists_init_steps = true;
    return p;
}

/// 19 adds --continue-on-error (other SQL errors end the transaction as a failure, counted as an
/// "other failure"); -c keeps 18's name, "-c/--client" (Debian's pgbench 19rc1 says so).
constexpr PgbenchProfile make_19() {
    PgbenchProfile p = as_major(make_18(), 19, "19rc1", 190000);
    p.continue_on_error = true;
    return p;
}

constexpr std::array<PgbenchProfile, 5> k_profiles = {make_15(), make_16(), make_17(), make_18(),
                                                      make_19()};

} // namespace

const PgbenchProfile* find_pgbench_profile(int major) {
    for (const PgbenchProfile& p : k_profiles) {
        if (p.major == major) {
            return &p;
        }
    }
    return nullptr;
}

const PgbenchProfile& default_pgbench_profile() {
    return *find_pgbench_profile(k_default_pgbench_major);
}

std::optional<int> parse_pgbench_major(std::string_view text) {
    const std::string_view major_text = text.substr(0, text.find('.'));
    int major = 0;
    const auto [end, ec] =
        std::from_chars(major_text.data(), major_text.data() + major_text.size(), major);
    if (ec != std::errc() || end != major_text.data() + major_text.size() || major_text.empty()) {
        return std::nullopt;
    }
    if (major_text.size() < text.size()) { // a minor: digits only
        const std::string_view minor = text.substr(major_text.size() + 1);
        if (minor.empty() || minor.find_first_not_of("0123456789") != std::string_view::npos) {
            return std::nullopt;
        }
    }
    if (find_pgbench_profile(major) == nullptr) {
        return std::nullopt;
    }
    return major;
}

} // namespace pglab::compat
