// lab/experiment: the parts of the experiment-file parser, one per section of the file, and the
// cross-reference checks. Internal to the spec parser: use parse_experiment.hpp.
#pragma once

#include "lab/experiment/diagnostics.hpp"
#include "lab/experiment/experiment_spec.hpp"
#include "lab/experiment/toml_reader.hpp"

#include <toml++/toml.h>

#include <filesystem>
#include <functional>
#include <string>

namespace pglab::lab::experiment {

/// What every part of the parser shares.
struct ParseContext {
    std::string file;               ///< for messages
    std::filesystem::path base_dir; ///< relative script files are read from here
    bool read_files = true;         ///< false: script files are not read (fuzzing)
    Diagnostics& diag;
};

/// `[servers.NAME]` tables. With no `[servers]`, the embedded default.
void parse_servers(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec);

/// `[sessions.NAME]` tables.
void parse_sessions(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec);

/// `[scripts.NAME]` tables (reads script files when ctx.read_files).
void parse_scripts(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec);

/// `[matrix]`.
void parse_matrix(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec);

/// `[quick.servers.NAME]` for the declared server `server`: memory_limit and sync_delay, read
/// as in `[servers.NAME]`; any other server key does not apply there.
QuickServer parse_quick_server(const ServerSpec& server, const toml::table& t, ParseContext& ctx);

/// `[[steps]]`.
void parse_steps(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec);

/// `[[claims]]` (after the matrix and the steps: claims name them).
void parse_claims(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec);

/// `repeat` of the top level or of `[quick]`: a count, or `{ min, max, until = "decided",
/// budget }` (then `until_decided` is set and `repeat` is `min`).
void read_repeat(TableReader& r, ParseContext& ctx, std::optional<std::uint32_t>& repeat,
                 std::optional<RepeatUntilDecided>& until_decided);

/// A `repeat` until decided needs a claim to decide (after the quick form is applied).
void check_repeat(ParseContext& ctx, const ExperimentSpec& spec);

/// `[quick]` (after the matrix: it overrides matrix variables).
void parse_quick(const toml::node* node, ParseContext& ctx, ExperimentSpec& spec);

/// Replaces the spec's repetitions and matrix values by those of its `[quick]` form.
void apply_quick(ExperimentSpec& spec);

/// Checks what refers to what: servers, sessions and scripts named by steps, `${name}` and
/// filter names, standby chains, the default server. Runs after every part was parsed.
void check_references(ParseContext& ctx, ExperimentSpec& spec);

/// A table under `node` or a diagnostic saying `what` must be a table.
const toml::table* expect_table(const toml::node* node, std::string_view what,
                                std::string_view example, ParseContext& ctx);

/// The tables of an array of tables (`[[steps]]`, `[[claims]]`) under `key`, each passed to
/// `each` with its 0-based index; a diagnostic for a value that is not an array, and for each
/// element that is not a table (`what` names one: "step", "claim"). Returns false when `node`
/// is not an array.
bool for_each_table(const toml::node& node, std::string_view key, std::string_view what,
                    std::string_view example, ParseContext& ctx,
                    const std::function<void(const toml::table&, std::size_t)>& each);

/// Whether `name` is a usable name for a server, session, script or step: letters, digits, `_`
/// and `-`, starting with a letter. Reports a diagnostic at `pos` when not.
bool check_name(std::string_view name, std::string_view what, const SourcePos& pos,
                ParseContext& ctx);

} // namespace pglab::lab::experiment

namespace pglab::lab::experiment {

/// Checks the top-level `server` (at `server_pos`) or picks the only primary as the runs'
/// default server.
void check_default_server(ParseContext& ctx, ExperimentSpec& spec, const SourcePos& server_pos);

} // namespace pglab::lab::experiment
