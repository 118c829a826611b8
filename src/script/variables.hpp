// Script variables: names resolved to slots once at load time (VariableTable), values kept per
// client (Variables). Pure: no libpq, no clock.
#pragma once

#include "script/value.hpp"
#include "util/result.hpp"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pglab::script {

/// Maps every variable name that any script, -D option or automatic variable mentions to a slot.
/// Built while loading; read-only (and so shared by all threads) once the run starts.
class VariableTable {
public:
    /// Returns the slot of `name`, creating it if new.
    int intern(std::string_view name);

    /// Returns the slot of `name`, or -1 when no script mentions it.
    int find(std::string_view name) const;

    const std::string& name(int slot) const { return m_names[static_cast<size_t>(slot)]; }

    size_t size() const { return m_names.size(); }

private:
    std::vector<std::string> m_names;
    std::unordered_map<std::string, int> m_slots;
};

/// True if `name` is a valid pgbench variable name: first byte an ASCII letter, '_' or >= 0x80;
/// the rest may also hold digits.
bool valid_variable_name(std::string_view name);

/// One client's variable values, indexed by slot. A slot is undefined, or holds a typed Value,
/// or holds a string (from -D or \gset) that is typed lazily on first use in an expression,
/// as pgbench does. Reading and writing allocate nothing once a slot's string has capacity.
class Variables {
public:
    explicit Variables(const VariableTable& table);

    const VariableTable& table() const { return *m_table; }

    bool defined(int slot) const;

    /// The typed value of `slot` for an expression. Errors (the client aborts):
    /// `undefined variable "NAME"`, `malformed variable "NAME" value: "TEXT"`.
    Result<Value> get(int slot);

    /// The substitution text of `slot`; false when undefined.
    bool text(int slot, std::string& out) const;

    void set(int slot, Value v);

    /// Stores a string value (typed lazily): -D values and \gset / \aset columns.
    void set_string(int slot, std::string_view s);

private:
    /// Makes `slot` addressable (the table may have grown after this object was made).
    void grow(int slot);

    struct Slot {
        enum class State : uint8_t { undefined, typed, text } state = State::undefined;
        bool text_typed = false; ///< a text slot whose typed value is cached in `value`
        Value value;
        std::string str;
    };

    const VariableTable* m_table;
    std::vector<Slot> m_slots;
};

/// Parses a -D / \gset string as pgbench types it: null, booleans (prefixes of true/yes/false/no,
/// on/off), int64, double. Error: `malformed variable "NAME" value: "TEXT"`.
Result<Value> parse_variable_text(std::string_view name, std::string_view text);

} // namespace pglab::script
