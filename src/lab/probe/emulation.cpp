// Probes of the emulated machine: the sync-delay library's counters (a file the server's
// processes share) and the memory cgroup's limit and peak. Files only, no server query.
#include "lab/probe/probe.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>

#include "preload/sync_counts.h"

namespace pglab::lab::probe {

namespace fs = std::filesystem;

namespace {

constexpr double k_ns_per_ms = 1e6;

/// The first word of a cgroup file as a number; nullopt when absent or "max" (no limit).
std::optional<double> read_cgroup_number(const fs::path& file) {
    std::ifstream in(file);
    std::string word;
    if (!(in >> word) || word.empty() || word == "max" || word.front() < '0'
        || word.front() > '9') {
        return std::nullopt;
    }
    return static_cast<double>(std::stoull(word));
}

} // namespace

std::optional<SyncCounts> read_sync_counts(const fs::path& file) {
    // Read whole with one read: each aligned 64-bit counter comes out whole (the writers add to
    // them atomically in the page cache this read copies from).
    auto data = std::make_unique<pglab_sync_file>();
    std::ifstream in(file, std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(data.get()), sizeof(pglab_sync_file))
        || data->magic != PGLAB_SYNC_MAGIC || data->version != PGLAB_SYNC_VERSION) {
        return std::nullopt;
    }
    SyncCounts c;
    const auto calls = [&](int kind) { return static_cast<double>(data->total[kind].calls); };
    for (int kind = 0; kind < PGLAB_SYNC_KINDS; ++kind) {
        c.calls += calls(kind);
        c.delayed_ms += static_cast<double>(data->total[kind].delayed_ns) / k_ns_per_ms;
    }
    c.fsync = calls(PGLAB_SYNC_FSYNC);
    c.fdatasync = calls(PGLAB_SYNC_FDATASYNC);
    c.sync_file_range = calls(PGLAB_SYNC_FILE_RANGE);
    c.sync_write = calls(PGLAB_SYNC_WRITE);
    return c;
}

void read_emulation(const ProbeContext& context, Snapshot& snapshot) {
    if (!context.sync_counts_file.empty()) {
        if (const std::optional<SyncCounts> c = read_sync_counts(context.sync_counts_file)) {
            snapshot.samples.push_back(Sample{"sync.calls", c->calls, "count"});
            snapshot.samples.push_back(Sample{"sync.delayed_ms", c->delayed_ms, "ms"});
            snapshot.samples.push_back(Sample{"sync.fsync", c->fsync, "count"});
            snapshot.samples.push_back(Sample{"sync.fdatasync", c->fdatasync, "count"});
            snapshot.samples.push_back(Sample{"sync.sync_file_range", c->sync_file_range, "count"});
            snapshot.samples.push_back(Sample{"sync.write", c->sync_write, "count"});
        } else {
            snapshot.notes.push_back(
                fmt::format("sync.*: cannot read \"{}\"", context.sync_counts_file.string()));
        }
    }
    if (!context.memory_cgroup_dir.empty()) {
        const fs::path& dir = context.memory_cgroup_dir;
        const bool v1 = fs::exists(dir / "memory.limit_in_bytes");
        const auto limit = read_cgroup_number(dir / (v1 ? "memory.limit_in_bytes" : "memory.max"));
        const auto peak =
            read_cgroup_number(dir / (v1 ? "memory.max_usage_in_bytes" : "memory.peak"));
        const auto current =
            read_cgroup_number(dir / (v1 ? "memory.usage_in_bytes" : "memory.current"));
        if (limit) {
            snapshot.samples.push_back(
                Sample{"server.memory_limit_bytes", *limit, "bytes", Kind::level});
        }
        if (peak) {
            snapshot.samples.push_back(
                Sample{"server.memory_peak_bytes", *peak, "bytes", Kind::level});
        }
        if (current) {
            snapshot.samples.push_back(
                Sample{"server.memory_bytes", *current, "bytes", Kind::level});
        }
        if (!limit && !peak && !current) {
            snapshot.notes.push_back(
                fmt::format("server.memory_*: cannot read cgroup \"{}\"", dir.string()));
        }
    }
}

} // namespace pglab::lab::probe
