// lab/experiment: look-ups by name in an ExperimentSpec.
#include "lab/experiment/experiment_spec.hpp"

#include <fmt/format.h>

namespace pglab::lab::experiment {
namespace {

template <class T>
const T* find_named(const std::vector<T>& items, std::string_view name) {
    for (const auto& item : items) {
        if (item.name == name) {
            return &item;
        }
    }
    return nullptr;
}

} // namespace

std::string describe_emulation(std::optional<std::uint64_t> memory_limit_bytes,
                               std::optional<std::int64_t> sync_delay_us) {
    std::string out;
    if (memory_limit_bytes) {
        const double mib = static_cast<double>(*memory_limit_bytes) / (1024.0 * 1024.0);
        out = mib >= 1024.0 ? fmt::format("memory limit {:g} GiB", mib / 1024.0)
                            : fmt::format("memory limit {:g} MiB", mib);
    }
    if (sync_delay_us) {
        const std::int64_t us = *sync_delay_us;
        out += out.empty() ? "" : ", ";
        out += us == 0          ? std::string("syncs counted, not slowed")
               : us % 1000 == 0 ? fmt::format("each sync +{} ms", us / 1000)
                                : fmt::format("each sync +{} us", us);
    }
    return out;
}

const MatrixVariable* Matrix::find(std::string_view name) const {
    return find_named(variables, name);
}

const ServerSpec* ExperimentSpec::find_server(std::string_view n) const {
    return find_named(servers, n);
}

const ScriptSpec* ExperimentSpec::find_script(std::string_view n) const {
    return find_named(scripts, n);
}

} // namespace pglab::lab::experiment
