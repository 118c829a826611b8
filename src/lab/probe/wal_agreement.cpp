// lab/probe: pg_stat_wal's record counters against the WAL insert position.
#include "lab/probe/wal_agreement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace pglab::lab::probe {

namespace {

constexpr unsigned long long k_short_header = 24; // SizeOfXLogShortPHD, MAXALIGNed
constexpr unsigned long long k_long_header = 40;  // SizeOfXLogLongPHD: a segment's first page
constexpr double k_max_padding = 7;               // MAXALIGN(8) after each record
constexpr double k_relative_tolerance = 0.01;
/// A position read right at a page boundary may or may not count that page's header yet.
constexpr double k_absolute_tolerance = 64;
constexpr int k_pg_stat_wal_version = 140000;

std::string names_withheld() {
    std::string out;
    for (const char* name : k_wal_record_probes) {
        out += out.empty() ? "" : ", ";
        out += name;
    }
    return out;
}

} // namespace

unsigned long long wal_page_header_bytes(unsigned long long start, unsigned long long end,
                                         const WalLayout& layout) {
    if (end <= start || layout.page_size == 0 || layout.segment_size == 0) {
        return 0;
    }
    const unsigned long long pages = end / layout.page_size - start / layout.page_size;
    const unsigned long long segments = end / layout.segment_size - start / layout.segment_size;
    return pages * k_short_header + segments * (k_long_header - k_short_header);
}

std::optional<std::string> wal_statistics_gap(unsigned long long start, unsigned long long end,
                                              double stat_bytes, double records,
                                              const WalLayout& layout) {
    if (end < start) {
        return fmt::format("the WAL insert position went back ({} to {} bytes)", start, end);
    }
    const double moved = static_cast<double>(end - start);
    const double of_records =
        moved - static_cast<double>(wal_page_header_bytes(start, end, layout));
    const double tolerance = std::max(k_relative_tolerance * moved, k_absolute_tolerance);
    const double lowest = of_records - k_max_padding * std::max(records, 0.0) - tolerance;
    const double highest = of_records + tolerance;
    if (stat_bytes >= lowest && stat_bytes <= highest) {
        return std::nullopt;
    }
    const std::string counted =
        fmt::format("pg_stat_wal counted {:.0f} bytes in {:.0f} records where the WAL insert "
                    "position moved {:.0f} bytes ({:.0f} of records after page headers)",
                    stat_bytes, records, moved, of_records);
    if (stat_bytes < lowest) {
        return counted
               + ": some process that wrote WAL during the step had not flushed its "
                 "statistics yet (a session inside a transaction, an autovacuum worker, "
                 "a server older than 15, which cannot be asked to)";
    }
    return counted + ": statistics of WAL written before the step arrived during it";
}

std::optional<std::string> withhold_unflushed_wal(const Snapshot& before, const Snapshot& after,
                                                  Deltas& deltas) {
    const std::optional<double> stat_bytes = find(deltas, "wal.stat_bytes");
    if (!stat_bytes) {
        if (after.server_version_num > 0 && after.server_version_num < k_pg_stat_wal_version) {
            return fmt::format("{} not measured: pg_stat_wal came with PostgreSQL 14, this "
                               "server is {}",
                               names_withheld(), after.server_version_num / 10000);
        }
        return std::nullopt; // its counters went back (a reset): diff() left them out
    }
    std::optional<std::string> gap;
    if (!before.insert_lsn || !after.insert_lsn) {
        gap = "the WAL insert position was not read (a standby in recovery has none), so "
              "nothing tells whether pg_stat_wal's counters hold the whole step";
    } else {
        WalLayout layout;
        if (after.wal_segment_size > 0) {
            layout.segment_size = after.wal_segment_size;
        }
        gap = wal_statistics_gap(*before.insert_lsn, *after.insert_lsn, *stat_bytes,
                                 find(deltas, "wal.records").value_or(0), layout);
    }
    if (!gap) {
        return std::nullopt;
    }
    const bool has_fpi_bytes = find(deltas, k_wal_fpi_bytes_probe).has_value();
    std::erase_if(deltas, [](const Delta& d) {
        return d.name == k_wal_fpi_bytes_probe
               || std::any_of(std::begin(k_wal_record_probes), std::end(k_wal_record_probes),
                              [&d](const char* name) { return d.name == name; });
    });
    return fmt::format("{}{} withheld: {}", names_withheld(),
                       has_fpi_bytes ? fmt::format(", {}", k_wal_fpi_bytes_probe) : "", *gap);
}

} // namespace pglab::lab::probe
