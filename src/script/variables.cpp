// Variable slots, per-client values and pgbench's lazy typing of string values (-D, \gset).
#include "script/variables.hpp"

#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace pglab::script {

namespace {

bool is_name_start(unsigned char c) {
    return c >= 0x80 || std::isalpha(c) != 0 || c == '_';
}

bool is_name_char(unsigned char c) {
    return is_name_start(c) || (c >= '0' && c <= '9');
}

/// pg_strncasecmp(text, word, text.size()) == 0: `text` is a case-insensitive prefix of `word`.
bool is_prefix_ci(std::string_view text, std::string_view word) {
    if (text.size() > word.size()) {
        return false;
    }
    return strncasecmp(text.data(), word.data(), text.size()) == 0;
}

bool equals_ci(std::string_view text, std::string_view word) {
    return text.size() == word.size() && strncasecmp(text.data(), word.data(), text.size()) == 0;
}

/// pgbench's is_an_int(): spaces, optional sign, digits, end (an empty digit run passes too).
bool looks_like_int(std::string_view s) {
    size_t i = 0;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])) != 0) {
        ++i;
    }
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        ++i;
    }
    if (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) == 0) {
        return false;
    }
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0) {
        ++i;
    }
    return i == s.size();
}

Result<Value> parse_c_string(std::string_view name, const char* text, size_t len) {
    const std::string_view sv(text, len);
    if (len == 0) {
        // pgbench's makeVariableValue() fails here without a message (an empty -D value, or a
        // NULL or empty column stored by \gset); the client then aborts with only "evaluation
        // of meta-command failed". The empty message tells the engine to print nothing.
        return make_error(std::string());
    }
    if (equals_ci(sv, "null")) {
        return Value::null();
    }
    if (is_prefix_ci(sv, "true") || is_prefix_ci(sv, "yes") || equals_ci(sv, "on")) {
        return Value::boolean(true);
    }
    if (is_prefix_ci(sv, "false") || is_prefix_ci(sv, "no") || equals_ci(sv, "off")
        || equals_ci(sv, "of")) {
        return Value::boolean(false);
    }
    if (looks_like_int(sv)) {
        char* end = nullptr;
        errno = 0;
        const long long v = std::strtoll(text, &end, 10);
        if (errno == ERANGE) {
            return make_error("value \"" + std::string(sv) + "\" is out of range for type bigint");
        }
        if (errno != 0 || end == text || *end != '\0') {
            return make_error("invalid input syntax for type bigint: \"" + std::string(sv) + "\"");
        }
        return Value::integer(v);
    }
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0') {
        return make_error("malformed variable \"" + std::string(name) + "\" value: \""
                          + std::string(sv) + "\"");
    }
    return Value::real(d);
}

} // namespace

int VariableTable::intern(std::string_view name) {
    auto it = m_slots.find(std::string(name));
    if (it != m_slots.end()) {
        return it->second;
    }
    const int slot = static_cast<int>(m_names.size());
    m_names.emplace_back(name);
    m_slots.emplace(std::string(name), slot);
    return slot;
}

int VariableTable::find(std::string_view name) const {
    auto it = m_slots.find(std::string(name));
    return it == m_slots.end() ? -1 : it->second;
}

bool valid_variable_name(std::string_view name) {
    if (name.empty() || !is_name_start(static_cast<unsigned char>(name[0]))) {
        return false;
    }
    for (char c : name.substr(1)) {
        if (!is_name_char(static_cast<unsigned char>(c))) {
            return false;
        }
    }
    return true;
}

Variables::Variables(const VariableTable& table) : m_table(&table), m_slots(table.size()) {}

bool Variables::defined(int slot) const {
    const auto i = static_cast<size_t>(slot);
    return slot >= 0 && i < m_slots.size() && m_slots[i].state != Slot::State::undefined;
}

Result<Value> Variables::get(int slot) {
    if (!defined(slot)) {
        return make_error("undefined variable \"" + m_table->name(slot) + "\"");
    }
    Slot& s = m_slots[static_cast<size_t>(slot)];
    if (s.state == Slot::State::text && !s.text_typed) {
        PGLAB_TRY_ASSIGN(s.value, parse_c_string(m_table->name(slot), s.str.c_str(), s.str.size()));
        s.text_typed = true;
    }
    return s.value;
}

bool Variables::text(int slot, std::string& out) const {
    if (!defined(slot)) {
        return false;
    }
    const Slot& s = m_slots[static_cast<size_t>(slot)];
    if (s.state == Slot::State::text) {
        out.append(s.str);
    } else {
        append_value_text(s.value, out);
    }
    return true;
}

void Variables::set(int slot, Value v) {
    grow(slot);
    Slot& s = m_slots[static_cast<size_t>(slot)];
    s.state = Slot::State::typed;
    s.text_typed = false;
    s.value = v;
}

void Variables::set_string(int slot, std::string_view str) {
    grow(slot);
    Slot& s = m_slots[static_cast<size_t>(slot)];
    s.state = Slot::State::text;
    s.text_typed = false;
    s.str.assign(str);
}

void Variables::grow(int slot) {
    const auto need = static_cast<size_t>(slot) + 1;
    if (m_slots.size() < need) {
        m_slots.resize(std::max(need, m_table->size()));
    }
}

Result<Value> parse_variable_text(std::string_view name, std::string_view text) {
    const std::string copy(text);
    return parse_c_string(name, copy.c_str(), copy.size());
}

} // namespace pglab::script
