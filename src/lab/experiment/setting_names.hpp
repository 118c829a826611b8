// lab/experiment: the hook that checks postgresql.conf setting names against a server's
// pg_settings. The spec cannot ask a server; the orchestrator collects the names here, queries
// pg_settings once, and gets `file:line:column` errors with suggestions back. No I/O.
#pragma once

#include "lab/experiment/diagnostics.hpp"
#include "lab/experiment/experiment_spec.hpp"
#include "util/result.hpp"

#include <functional>
#include <string>
#include <vector>

namespace pglab::lab::experiment {

/// A setting name used somewhere in the file: a server's `settings` or a `settings.NAME`
/// matrix variable.
struct SettingRef {
    std::string name;
    std::string server; ///< the server whose settings table names it; "" for the matrix
    SourcePos pos;
};

/// Every setting name of the experiment, in file order within each section.
std::vector<SettingRef> setting_refs(const ExperimentSpec& spec);

/// Checks `refs` against `known` (pg_settings.name; case-insensitive). Names with a "." are
/// custom (extension) settings and always pass, as PostgreSQL accepts them as placeholders.
/// Error: one `file:line:column: unknown setting "x" (did you mean "y"?)` per unknown name.
Status check_setting_names(const std::vector<SettingRef>& refs,
                           const std::vector<std::string>& known);

/// As above, adding one diagnostic per unknown name to `diag`.
void check_setting_names(const std::vector<SettingRef>& refs, const std::vector<std::string>& known,
                         Diagnostics& diag);

/// ParseOptions::check_settings: receives every setting name with its position and adds a
/// diagnostic for each bad one (usually through check_setting_names() with the names a server's
/// pg_settings gave).
using SettingNameHook = std::function<void(const std::vector<SettingRef>& refs, Diagnostics& diag)>;

} // namespace pglab::lab::experiment
