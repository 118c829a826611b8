// lab/probe: VACUUM VERBOSE and ANALYZE VERBOSE reports read into samples.
#include "lab/probe/vacuum_verbose.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>

namespace pglab::lab::probe {

namespace {

/// A figure a pattern's number becomes: its name after the report's prefix, and its unit.
struct Field {
    const char* name; ///< "" for a number left out (a percentage, an XID)
    const char* unit;
};

/// One line of a report as PostgreSQL prints it: `{n}` a number, `{t}` any text (a table or
/// index name), and the figures its numbers become, in order.
struct LinePattern {
    const char* text;
    std::array<Field, 6> fields;
};

constexpr Field k_skip{"", ""};

// Lines of both reports (15-19; 18 says "reads" where 15-17 say "misses", and adds buffers
// full to the WAL line; 19 adds the full-page images' bytes).
constexpr LinePattern k_common_lines[] = {
    {"I/O timings: read: {n} ms, write: {n} ms",
     {{{"read_time_ms", "ms"}, {"write_time_ms", "ms"}}}},
    {"avg read rate: {n} MB/s, avg write rate: {n} MB/s", {}}, // rates: not summed over tables
    {"buffer usage: {n} hits, {n} misses, {n} dirtied",
     {{{"buffer_hits", "blocks"}, {"buffer_misses", "blocks"}, {"buffer_dirtied", "blocks"}}}},
    {"buffer usage: {n} hits, {n} reads, {n} dirtied",
     {{{"buffer_hits", "blocks"}, {"buffer_misses", "blocks"}, {"buffer_dirtied", "blocks"}}}},
    {"WAL usage: {n} records, {n} full page images, {n} bytes",
     {{{"wal_records", "count"}, {"wal_fpi", "count"}, {"wal_bytes", "bytes"}}}},
    {"WAL usage: {n} records, {n} full page images, {n} bytes, {n} buffers full",
     {{{"wal_records", "count"},
       {"wal_fpi", "count"},
       {"wal_bytes", "bytes"},
       {"wal_buffers_full", "count"}}}},
    {"WAL usage: {n} records, {n} full page images, {n} bytes, {n} full page image bytes, {n} "
     "buffers full",
     {{{"wal_records", "count"},
       {"wal_fpi", "count"},
       {"wal_bytes", "bytes"},
       {"wal_fpi_bytes", "bytes"},
       {"wal_buffers_full", "count"}}}},
    {"system usage: CPU: user: {n} s, system: {n} s, elapsed: {n} s",
     {{{"cpu_user_s", "s"}, {"cpu_system_s", "s"}, {"elapsed_s", "s"}}}},
    {"delay time: {n} ms", {{{"delay_time_ms", "ms"}}}},
};

constexpr LinePattern k_vacuum_lines[] = {
    {"finished vacuuming \"{t}\": index scans: {n}", {{{"index_scans", "count"}}}},
    {"pages: {n} removed, {n} remain, {n} scanned ({n}% of total)",
     {{{"pages_removed", "blocks"}, {"pages_remain", "blocks"}, {"pages_scanned", "blocks"}}}},
    {"pages: {n} removed, {n} remain, {n} scanned ({n}% of total), {n} eagerly scanned",
     {{{"pages_removed", "blocks"},
       {"pages_remain", "blocks"},
       {"pages_scanned", "blocks"},
       k_skip,
       {"pages_eagerly_scanned", "blocks"}}}},
    {"tuples: {n} removed, {n} remain, {n} are dead but not yet removable",
     {{{"tuples_removed", "rows"},
       {"tuples_remain", "rows"},
       {"tuples_dead_not_removable", "rows"}}}},
    {"tuples missed: {n} dead from {n} pages not removed due to cleanup lock contention",
     {{{"tuples_missed", "rows"}, {"pages_missed", "blocks"}}}},
    {"removable cutoff: {t}", {}},
    {"new relfrozenxid: {t}", {}},
    {"new relminmxid: {t}", {}},
    {"frozen: {n} pages from table ({n}% of total) had {n} tuples frozen",
     {{{"pages_frozen", "blocks"}, k_skip, {"tuples_frozen", "rows"}}}},
    {"visibility map: {n} pages set all-visible, {n} pages set all-frozen ({n} were all-visible)",
     {{{"pages_set_all_visible", "blocks"}, {"pages_set_all_frozen", "blocks"}}}},
    {"index scan needed: {n} pages from table ({n}% of total) had {n} dead item identifiers "
     "removed",
     {{{"dead_item_pages", "blocks"}, k_skip, {"dead_items", "rows"}}}},
    {"index scan not needed: {n} pages from table ({n}% of total) had {n} dead item identifiers "
     "removed",
     {{{"dead_item_pages", "blocks"}, k_skip, {"dead_items", "rows"}}}},
    {"index scan bypassed: {n} pages from table ({n}% of total) have {n} dead item identifiers",
     {{{"dead_item_pages", "blocks"}, k_skip, {"dead_items", "rows"}}}},
    {"index scan bypassed by failsafe: {n} pages from table ({n}% of total) have {n} dead item "
     "identifiers",
     {{{"dead_item_pages", "blocks"}, k_skip, {"dead_items", "rows"}}}},
    {"index \"{t}\": pages: {n} in total, {n} newly deleted, {n} currently deleted, {n} reusable",
     {{{"index_pages", "blocks"},
       {"index_pages_newly_deleted", "blocks"},
       {"index_pages_deleted", "blocks"},
       {"index_pages_reusable", "blocks"}}}},
    {"memory usage: {t}", {}},
};

constexpr LinePattern k_analyze_lines[] = {
    {"finished analyzing table \"{t}\"", {}},
};

/// ANALYZE's own message, one per table, outside any "finished" report.
constexpr LinePattern k_analyze_sample[] = {
    {"\"{t}\": scanned {n} of {n} pages, containing {n} live rows and {n} dead rows; {n} rows in "
     "sample, {n} estimated total rows",
     {{{"pages_scanned", "blocks"},
       {"pages_total", "blocks"},
       {"live_rows", "rows"},
       {"dead_rows", "rows"},
       {"rows_sampled", "rows"},
       {"rows_estimated", "rows"}}}}};

/// A number at the start of `text` ("-12", "100.00", "75252272"): its value and length.
std::optional<std::pair<double, std::size_t>> leading_number(std::string_view text) {
    std::size_t end = 0;
    if (end < text.size() && text[end] == '-') {
        ++end;
    }
    const std::size_t digits_from = end;
    while (end < text.size() && ((text[end] >= '0' && text[end] <= '9') || text[end] == '.')) {
        ++end;
    }
    if (end == digits_from) {
        return std::nullopt;
    }
    double value = 0;
    const auto r = std::from_chars(text.data(), text.data() + end, value);
    if (r.ec != std::errc{} || r.ptr != text.data() + end) {
        return std::nullopt;
    }
    return std::pair{value, end};
}

/// The numbers of `line` when it is `pattern` exactly, in order; nullopt when it is not.
std::optional<std::vector<double>> match(std::string_view pattern, std::string_view line) {
    std::vector<double> numbers;
    while (!pattern.empty()) {
        if (pattern.starts_with("{n}")) {
            const auto number = leading_number(line);
            if (!number) {
                return std::nullopt;
            }
            numbers.push_back(number->first);
            line.remove_prefix(number->second);
            pattern.remove_prefix(3);
        } else if (pattern.starts_with("{t}")) {
            pattern.remove_prefix(3);
            // Any text up to the literal that follows (the last one, for a name that may hold
            // it: an index named "a": pages"), or to the end.
            const std::string_view next = pattern.substr(0, pattern.find('{'));
            if (next.empty()) {
                line = {};
                continue;
            }
            const std::size_t at = line.rfind(next);
            if (at == std::string_view::npos) {
                return std::nullopt;
            }
            line.remove_prefix(at);
        } else {
            const std::size_t literal = std::min(pattern.find('{'), pattern.size());
            if (!line.starts_with(pattern.substr(0, literal))) {
                return std::nullopt;
            }
            line.remove_prefix(literal);
            pattern.remove_prefix(literal);
        }
    }
    if (!line.empty()) {
        return std::nullopt;
    }
    return numbers;
}

void add(VerboseFigures& figures, const std::string& name, double value, const char* unit) {
    const auto same = std::find_if(figures.samples.begin(), figures.samples.end(),
                                   [&](const Sample& s) { return s.name == name; });
    if (same != figures.samples.end()) {
        same->value += value;
    } else {
        figures.samples.push_back(Sample{name, value, unit, Kind::counter});
    }
}

/// Reads `line` by the first of `patterns` it is; false when none.
template <std::size_t N>
bool read_line(std::string_view line, const LinePattern (&patterns)[N], const char* prefix,
               VerboseFigures& figures) {
    for (const LinePattern& p : patterns) {
        if (const auto numbers = match(p.text, line)) {
            for (std::size_t i = 0; i < numbers->size() && i < p.fields.size(); ++i) {
                const Field& f = p.fields[i];
                if (f.name != nullptr && *f.name != '\0') {
                    add(figures, fmt::format("{}.{}", prefix, f.name), (*numbers)[i], f.unit);
                }
            }
            return true;
        }
    }
    return false;
}

/// `notice` without libpq's severity prefix ("INFO:  ") and its last newline.
std::string_view message_of(std::string_view notice) {
    if (const std::size_t colon = notice.find(":  ");
        colon != std::string_view::npos && colon < 10) {
        notice.remove_prefix(colon + 3);
    }
    while (!notice.empty() && (notice.back() == '\n' || notice.back() == '\r')) {
        notice.remove_suffix(1);
    }
    return notice;
}

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        lines.push_back(text.substr(0, nl));
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    }
    return lines;
}

} // namespace

void read_verbose_notice(std::string_view notice, VerboseFigures& figures) {
    const std::string_view message = message_of(notice);
    if (read_line(message, k_analyze_sample, "analyze", figures)) {
        return;
    }
    const bool vacuum = message.starts_with("finished vacuuming ");
    const bool analyze = message.starts_with("finished analyzing table ");
    if (!vacuum && !analyze) {
        return; // "vacuuming ...", "analyzing ...", or no VERBOSE report at all
    }
    const char* prefix = vacuum ? "vacuum" : "analyze";
    const char* what = vacuum ? "VACUUM VERBOSE" : "ANALYZE VERBOSE";
    for (const std::string_view line : lines_of(message)) {
        const bool read = vacuum ? read_line(line, k_vacuum_lines, prefix, figures)
                                 : read_line(line, k_analyze_lines, prefix, figures);
        if (!read && !read_line(line, k_common_lines, prefix, figures)) {
            figures.unread.push_back(
                fmt::format("{}: a line pglab does not read: \"{}\"", what, line));
        }
    }
}

VerboseFigures read_verbose_notices(const std::vector<std::string>& notices) {
    VerboseFigures figures;
    for (const std::string& notice : notices) {
        read_verbose_notice(notice, figures);
    }
    return figures;
}

} // namespace pglab::lab::probe
