// lab/experiment: the settings presets.
#include "lab/experiment/settings_presets.hpp"

namespace pglab::lab::experiment {

namespace {

const std::vector<SettingsPreset>& presets() {
    static const std::vector<SettingsPreset> k_presets = {
        {"9.2",
         {
             {"shared_buffers", "32MB"},
             {"work_mem", "1MB"},
             {"maintenance_work_mem", "16MB"},
             {"effective_cache_size", "128MB"},
             {"checkpoint_completion_target", "0.5"},
             // checkpoint_segments = 3: 9.5's release notes convert it as (3 x segments) x 16MB
             {"max_wal_size", "144MB"},
             // Not 9.2's wal_level = minimal: standbys and archiving need replica. A file that
             // wants it sets wal_level = "minimal" and max_wal_senders = 0 itself.
         }},
    };
    return k_presets;
}

} // namespace

const SettingsPreset* find_settings_preset(std::string_view name) {
    for (const SettingsPreset& p : presets()) {
        if (name == p.name) {
            return &p;
        }
    }
    return nullptr;
}

std::vector<std::string> settings_preset_names() {
    std::vector<std::string> names;
    for (const SettingsPreset& p : presets()) {
        names.emplace_back(p.name);
    }
    return names;
}

} // namespace pglab::lab::experiment
