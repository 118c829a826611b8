// lab/experiment: setting-name collection and checking.
#include "lab/experiment/setting_names.hpp"

#include "lab/experiment/diagnostics.hpp"
#include "lab/experiment/suggest.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace pglab::lab::experiment {

std::vector<SettingRef> setting_refs(const ExperimentSpec& spec) {
    std::vector<SettingRef> refs;
    for (const auto& server : spec.servers) {
        for (const auto& s : server.settings) {
            refs.push_back(SettingRef{s.name, server.name, s.pos});
        }
    }
    for (const auto& v : spec.matrix.variables) {
        if (v.kind == VariableKind::setting) {
            refs.push_back(SettingRef{v.key, "", v.pos});
        }
    }
    return refs;
}

void check_setting_names(const std::vector<SettingRef>& refs, const std::vector<std::string>& known,
                         Diagnostics& diag) {
    const auto lower = [](const std::string& s) { return util::ascii_lower(s); };
    std::set<std::string> names;
    for (const auto& k : known) {
        names.insert(lower(k));
    }
    for (const auto& ref : refs) {
        if (ref.name.find('.') != std::string::npos || names.count(lower(ref.name)) != 0) {
            continue;
        }
        diag.add(ref.pos, "unknown setting \"" + ref.name + "\"" + did_you_mean(ref.name, known),
                 "check the name in the server's pg_settings (SHOW ALL lists them)");
    }
}

Status check_setting_names(const std::vector<SettingRef>& refs,
                           const std::vector<std::string>& known) {
    Diagnostics diag;
    check_setting_names(refs, known, diag);
    if (!diag.empty()) {
        return diag.to_error();
    }
    return {};
}

} // namespace pglab::lab::experiment
