// lab/experiment: presets of server settings. `defaults = "9.2"` in `[servers.NAME]` runs that
// server with the defaults of an older release where they differ from today's (a paper measured
// with them), the file's own `settings` over them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pglab::lab::experiment {

struct SettingsPreset {
    const char* name; ///< "9.2"
    /// Setting name and value as postgresql.conf takes them, in the order written.
    std::vector<std::pair<const char*, const char*>> settings;
};

/// The preset named `name`; nullptr when there is none.
const SettingsPreset* find_settings_preset(std::string_view name);

/// The presets' names, for messages ("\"9.2\"").
std::vector<std::string> settings_preset_names();

} // namespace pglab::lab::experiment
