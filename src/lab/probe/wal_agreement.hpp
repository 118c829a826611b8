// lab/probe: whether pg_stat_wal's counters over a step hold the whole step. The WAL insert
// position (wal.bytes) is exact the moment a record is inserted; pg_stat_wal's counters
// (wal.records, wal.fpi, wal.stat_bytes) count every process's records, but only once that
// process has flushed its statistics (a session at the end of a transaction, at most once a
// second, or when asked; a backend as it exits). Where every record is in, the position moved
// by the records' bytes, a page header on each WAL page begun, and up to 7 bytes of alignment
// after each record. A step whose counters miss records (or hold an earlier step's) has them
// withheld, with the reason, rather than recorded low: docs/probes.md.
#pragma once

#include "lab/probe/probe.hpp"

#include <optional>
#include <string>

namespace pglab::lab::probe {

/// The WAL page and segment sizes the check assumes: XLOG_BLCKSZ is 8192 in every build pglab
/// runs; the segment size is the server's wal_segment_size (16 MB unless initdb was told).
struct WalLayout {
    unsigned long long page_size = 8192;
    unsigned long long segment_size = 16ULL << 20;
};

/// The bytes of page headers the insert position passes from `start` to `end`: 24 on each page
/// begun in between, 40 on a segment's first page.
unsigned long long wal_page_header_bytes(unsigned long long start, unsigned long long end,
                                         const WalLayout& layout);

/// Why `stat_bytes` (pg_stat_wal.wal_bytes over the step, in `records` records) does not account
/// for the insert position's move from `start` to `end` within 1% (and 64 bytes, for a position
/// read on either side of a page header); nullopt when it does.
std::optional<std::string> wal_statistics_gap(unsigned long long start, unsigned long long end,
                                              double stat_bytes, double records,
                                              const WalLayout& layout);

/// The names pg_stat_wal's record counters have among the probes: flushed together, they are
/// withheld together.
inline constexpr const char* k_wal_record_probes[] = {"wal.records", "wal.fpi", "wal.stat_bytes"};

/// pg_stat_wal.wal_fpi_bytes (19+): flushed with the record counters, withheld with them where
/// the server has it.
inline constexpr const char* k_wal_fpi_bytes_probe = "wal.fpi_bytes";

/// Removes wal.records, wal.fpi and wal.stat_bytes (and 19's wal.fpi_bytes) from `deltas` when the
/// snapshots' insert positions show that they miss records or hold others (wal_statistics_gap), or
/// when no position was read to tell; the reason, naming them, when it did. On a server without
/// pg_stat_wal (11-13) those probes are absent already: a note says so.
std::optional<std::string> withhold_unflushed_wal(const Snapshot& before, const Snapshot& after,
                                                  Deltas& deltas);

} // namespace pglab::lab::probe
