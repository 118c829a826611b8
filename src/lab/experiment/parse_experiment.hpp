// lab/experiment: the entry point of the experiment-file parser: a TOML file or text becomes a
// validated ExperimentSpec, or every problem found, each as `file:line:column: message` with a
// one-line fix hint. Reads the file and the script files it names; nothing else.
#pragma once

#include "lab/experiment/diagnostics.hpp"
#include "lab/experiment/experiment_spec.hpp"
#include "lab/experiment/setting_names.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace pglab::lab::experiment {

struct ParseOptions {
    /// false: script files named by `[scripts.NAME] file` are not read (their text stays
    /// empty); for fuzzing and for tools that only look at the structure.
    bool read_files = true;
    /// Called with every setting name once the rest of the file is valid; its error is
    /// returned as is. Unset: setting names are not checked.
    SettingNameHook check_settings;
    /// true: the file's `[quick]` form is applied (`pglab run --quick`); an error when the
    /// file has none.
    bool quick = false;
};

/// The spec, or the problems (in file order of discovery; at least one when there is no spec).
struct ParseOutcome {
    std::optional<ExperimentSpec> spec;
    Diagnostics diagnostics;
};

/// Parses `text` as the experiment file named `file` (used in messages); relative script
/// files are read from `base_dir`. Never throws for bad input.
ParseOutcome parse_experiment_text(std::string_view text, const std::string& file,
                                   const std::filesystem::path& base_dir,
                                   const ParseOptions& options = {});

/// Reads and parses the file at `path` (messages name it as given).
Result<ExperimentSpec> parse_experiment_file(const std::filesystem::path& path,
                                             const ParseOptions& options = {});

/// As parse_experiment_text(), with the problems as one Error (see Diagnostics::to_error).
Result<ExperimentSpec> parse_experiment(std::string_view text, const std::string& file,
                                        const std::filesystem::path& base_dir,
                                        const ParseOptions& options = {});

} // namespace pglab::lab::experiment
