// lab/store: a probe's value over a step with its unit (docs/probes.md), as results.jsonl keeps
// it: `probes` {name: value} (what older readers read) and `probe_units` {name: unit}. Lines
// written before pglab recorded units have no `probe_units`: their units follow from the names,
// by the rule kept here and nowhere else.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::store {

struct ProbeValue {
    std::string name; ///< "wal.bytes", "db.blks_read", "wait.LWLock.WALWrite"...
    double value = 0;
    /// As recorded: "bytes", "ms", "s", "count", "blocks", "rows", "sessions", "processes";
    /// "" in lines written before pglab recorded units (see probe_unit).
    std::string unit;

    bool operator==(const ProbeValue&) const = default;
};

/// The probes of a step, in name order (as the line keeps them).
using ProbeValues = std::vector<ProbeValue>;

/// The unit of `p`: as recorded, else the one its name implies.
std::string probe_unit(const ProbeValue& p);

/// The unit a probe's name implies, for lines without `probe_units`: "*bytes" bytes, "*_ms" and
/// "*.ms" ms, "*_s" and "*.s" s, "wait.*" (but wait.samples) sessions, "host.runnable"
/// processes; "" for the rest (counts).
std::string unit_by_name(std::string_view name);

} // namespace pglab::lab::store
