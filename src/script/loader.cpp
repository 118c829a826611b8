// ScriptSet: parsing scripts into the set, and compiling their SQL for the chosen query mode.
#include "script/loader.hpp"

#include "script/script_parser.hpp"

namespace pglab::script {

namespace {

constexpr size_t k_max_scripts = 128;
constexpr size_t k_max_params = 255;

bool is_name_start(unsigned char c) {
    return c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_name_char(unsigned char c) {
    return is_name_start(c) || (c >= '0' && c <= '9');
}

/// Calls `on_text(text)` and `on_var(name)` in order over `sql`, finding ":name" references the
/// way pgbench's parseVariable() loop does (purely textual; runs of colons are skipped).
template <class OnText, class OnVar>
bool scan_variables(std::string_view sql, OnText on_text, OnVar on_var) {
    size_t text_start = 0;
    size_t p = 0;
    while ((p = sql.find(':', p)) != std::string_view::npos) {
        if (p + 1 < sql.size() && is_name_start(static_cast<unsigned char>(sql[p + 1]))) {
            size_t e = p + 2;
            while (e < sql.size() && is_name_char(static_cast<unsigned char>(sql[e]))) {
                ++e;
            }
            on_text(sql.substr(text_start, p - text_start));
            if (!on_var(sql.substr(p + 1, e - p - 1))) {
                return false;
            }
            p = text_start = e;
        } else {
            while (p < sql.size() && sql[p] == ':') {
                ++p;
            }
        }
    }
    on_text(sql.substr(text_start));
    return true;
}

} // namespace

Status ScriptSet::add(std::string_view name, std::string_view desc, std::string_view source,
                      int weight) {
    PGLAB_TRY_ASSIGN(std::vector<Command> cmds,
                     parse_script(name, desc, source, m_vars, m_dialect));
    if (m_scripts.size() >= k_max_scripts) {
        return make_error("at most 128 SQL scripts are allowed");
    }
    Script s;
    s.desc = std::string(desc);
    s.weight = weight;
    s.commands = std::move(cmds);
    m_scripts.push_back(std::move(s));
    return {};
}

Status ScriptSet::compile(QueryMode mode) {
    int prepared = 0;
    for (Script& s : m_scripts) {
        for (Command& c : s.commands) {
            if (c.type != CommandType::sql) {
                continue;
            }
            c.pieces.clear();
            c.parameterized_sql.clear();
            c.param_slots.clear();
            c.prepared_name.clear();
            if (mode == QueryMode::simple) {
                scan_variables(
                    c.sql,
                    [&](std::string_view text) {
                        SqlPiece piece;
                        piece.text.assign(text);
                        c.pieces.push_back(std::move(piece));
                    },
                    [&](std::string_view var) {
                        c.pieces.back().var_slot = m_vars.intern(var);
                        c.pieces.back().var_name.assign(var);
                        return true;
                    });
                continue;
            }
            if (mode == QueryMode::prepared) {
                c.prepared_index = prepared;
                c.prepared_name = "P_" + std::to_string(prepared++);
            }
            const bool ok = scan_variables(
                c.sql, [&](std::string_view text) { c.parameterized_sql.append(text); },
                [&](std::string_view var) {
                    if (c.param_slots.size() >= k_max_params) {
                        return false;
                    }
                    c.param_slots.push_back(m_vars.intern(var));
                    c.parameterized_sql += "$" + std::to_string(c.param_slots.size());
                    return true;
                });
            if (!ok) {
                return make_error("statement has too many arguments (maximum is 255): " + c.sql);
            }
        }
    }
    return {};
}

int ScriptSet::total_weight() const {
    int total = 0;
    for (const Script& s : m_scripts) {
        total += s.weight;
    }
    return total;
}

} // namespace pglab::script
