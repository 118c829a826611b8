// lab/experiment: typed, position-aware reading of one TOML table of an experiment file. Every key
// asked for becomes an allowed key; finish() reports the others as unknown with a "did you
// mean". Wrong types become diagnostics, never exceptions. Internal to the spec parser.
#pragma once

#include "lab/experiment/diagnostics.hpp"
#include "lab/experiment/experiment_spec.hpp"

#include <toml++/toml.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace pglab::lab::experiment {

/// The position of a TOML node or key in `file`.
SourcePos pos_of(const toml::source_region& region, const std::string& file);

/// "integer", "string", "table"... for messages.
std::string toml_type_name(const toml::node& node);

/// A scalar from a TOML value; nullopt (and a diagnostic) for tables, arrays and dates.
std::optional<Scalar> to_scalar(const toml::node& node, const std::string& file,
                                std::string_view what, Diagnostics& diag);

class TableReader {
public:
    /// Reads `table`; `where` names it in messages: "[matrix]", "[servers.pg16]", "step 2".
    TableReader(const toml::table& table, std::string where, const std::string& file,
                Diagnostics& diag);

    /// The node under `key` or null; marks `key` as allowed.
    const toml::node* get(std::string_view key);

    /// Marks `key` as allowed without reading it.
    void allow(std::string_view key) { m_allowed.emplace(key); }

    /// The value of `key` when it is of the given kind; a diagnostic when it is of another.
    /// `example` is a correct line for the hint ("repeat = 3").
    std::optional<std::string> string(std::string_view key, std::string_view example);
    std::optional<TextField> text(std::string_view key, std::string_view example);
    std::optional<std::int64_t> integer(std::string_view key, std::int64_t min, std::int64_t max,
                                        std::string_view example);
    std::optional<bool> boolean(std::string_view key, std::string_view example);

    /// A string or an array of strings (a single string gives a list of one).
    std::optional<std::vector<TextField>> string_list(std::string_view key,
                                                      std::string_view example);

    /// A duration: a number of seconds or a string such as "500ms", "10s", "2min".
    std::optional<std::int64_t> duration_ms(std::string_view key, std::string_view example);

    /// One of `allowed` (a string); a diagnostic naming them otherwise.
    std::optional<std::string> choice(std::string_view key,
                                      const std::vector<std::string>& allowed);

    /// Reports every key that was not asked for. `elsewhere` lists keys that are valid in
    /// tables of the same family but not in this one (for example keys of other step types):
    /// they get "does not apply" instead of "unknown".
    void finish(const std::vector<std::string>& elsewhere = {},
                std::string_view elsewhere_what = {});

    SourcePos pos() const { return pos_of(m_table.source(), m_file); }

    SourcePos key_pos(std::string_view key) const;

    SourcePos value_pos(const toml::node& node) const { return pos_of(node.source(), m_file); }

    const std::string& where() const { return m_where; }

    const std::string& file() const { return m_file; }

    Diagnostics& diag() { return m_diag; }

    /// Reports "\"key\" in WHERE must be a KIND, not a TYPE" at the value.
    void type_error(std::string_view key, const toml::node& node, std::string_view kind,
                    std::string_view example);

private:
    /// The value of `key` as a TOML `T` (std::string, std::int64_t, bool); null when it is
    /// absent, or of another type (then reported, naming `kind` and showing `example`).
    template <typename T>
    const toml::value<T>* typed(std::string_view key, std::string_view kind,
                                std::string_view example);

    const toml::table& m_table;
    std::string m_where;
    const std::string& m_file;
    Diagnostics& m_diag;
    std::set<std::string, std::less<>> m_allowed;
};

} // namespace pglab::lab::experiment
