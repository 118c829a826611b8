// The four profiles. Sources: each release's pgbench.c and release notes (15.18 and 18.6 read
// line by line; 16 and 17 from their release notes and the commits between them).
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

constexpr PgbenchProfile make_15() {
    PgbenchProfile p;
    p.major = 15;
    p.release = release_of(15, "15.18");
    p.version_num = version_num_of(15, 150018);
    return p;
}

/// 16 changed nothing a user of pgbench sees (the shell-failure message aside).
constexpr PgbenchProfile make_16() {
    PgbenchProfile p = make_15();
    p.major = 16;
    p.release = release_of(16, "16.14");
    p.version_num = version_num_of(16, 160014);
    return p;
}

constexpr PgbenchProfile make_17() {
    PgbenchProfile p = make_16();
    p.major = 17;
    p.release = release_of(17, "17.10");
    p.version_num = version_num_of(17, 170010);
    p.dbname_short_option = true;
    p.exit_on_abort = true;
    p.syncpipeline = true;
    p.copy_every_table = true;
    p.quoted_guc_names = true;
    return p;
}

constexpr PgbenchProfile make_18() {
    PgbenchProfile p = make_17();
    p.major = 18;
    p.release = release_of(18, "18.6");
    p.version_num = version_num_of(18, 180006);
    p.client_option_singular = true;
    p.raises_open_files = true;
    p.unlogged_main_tables_when_partitioned = false;
    p.per_script_processed_line = true;
    p.report_ends_when_nothing_ran = true;
    p.narrow_command_lines = true;
    p.help_lists_init_steps = true;
    return p;
}

constexpr std::array<PgbenchProfile, 4> k_profiles = {make_15(), make_16(), make_17(), make_18()};

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
