// lab/store: probe units, recorded or implied by the name.
#include "lab/store/probe_value.hpp"

namespace pglab::lab::store {

std::string unit_by_name(std::string_view name) {
    if (name.ends_with("bytes")) {
        return "bytes";
    }
    if (name.ends_with("_ms") || name.ends_with(".ms")) {
        return "ms";
    }
    if (name.ends_with("_s") || name.ends_with(".s")) {
        return "s";
    }
    if (name.starts_with("wait.") && name != "wait.samples") {
        return "sessions"; // averaged over the samples (docs/probes.md, "Wait events")
    }
    if (name == "host.runnable") {
        return "processes";
    }
    return "";
}

std::string probe_unit(const ProbeValue& p) {
    return p.unit.empty() ? unit_by_name(p.name) : p.unit;
}

} // namespace pglab::lab::store
