// lab/experiment: the TOML table reader.
#include "lab/experiment/toml_reader.hpp"

#include "lab/experiment/duration.hpp"
#include "lab/experiment/suggest.hpp"
#include "util/named_values.hpp"

namespace pglab::lab::experiment {

SourcePos pos_of(const toml::source_region& region, const std::string& file) {
    return SourcePos{file, region.begin.line, region.begin.column};
}

std::string toml_type_name(const toml::node& node) {
    static constexpr std::pair<toml::node_type, const char*> k_types[] = {
        {toml::node_type::none, "nothing"},    {toml::node_type::table, "table"},
        {toml::node_type::array, "array"},     {toml::node_type::string, "string"},
        {toml::node_type::integer, "integer"}, {toml::node_type::floating_point, "float"},
        {toml::node_type::boolean, "boolean"}, {toml::node_type::date, "date"},
        {toml::node_type::time, "time"},       {toml::node_type::date_time, "date-time"},
    };
    return util::name_of(k_types, node.type());
}

std::optional<Scalar> to_scalar(const toml::node& node, const std::string& file,
                                std::string_view what, Diagnostics& diag) {
    Scalar s;
    s.pos = pos_of(node.source(), file);
    if (const auto* i = node.as_integer()) {
        s.value = i->get();
    } else if (const auto* d = node.as_floating_point()) {
        s.value = d->get();
    } else if (const auto* b = node.as_boolean()) {
        s.value = b->get();
    } else if (const auto* str = node.as_string()) {
        s.value = str->get();
    } else {
        diag.add(s.pos,
                 std::string(what) + " must be a string, number or boolean, not a "
                     + toml_type_name(node),
                 "write a single value such as 4, 0.9, true or \"128MB\"");
        return std::nullopt;
    }
    return s;
}

TableReader::TableReader(const toml::table& table, std::string where, const std::string& file,
                         Diagnostics& diag)
    : m_table(table), m_where(std::move(where)), m_file(file), m_diag(diag) {}

const toml::node* TableReader::get(std::string_view key) {
    m_allowed.emplace(key);
    return m_table.get(key);
}

SourcePos TableReader::key_pos(std::string_view key) const {
    for (const auto& [k, v] : m_table) {
        if (k.str() == key) {
            return pos_of(k.source(), m_file);
        }
    }
    return pos();
}

void TableReader::type_error(std::string_view key, const toml::node& node, std::string_view kind,
                             std::string_view example) {
    m_diag.add(value_pos(node),
               "\"" + std::string(key) + "\" in " + m_where + " must be " + std::string(kind)
                   + ", not a " + toml_type_name(node),
               example.empty() ? std::string() : "write it as: " + std::string(example));
}

template <typename T>
const toml::value<T>* TableReader::typed(std::string_view key, std::string_view kind,
                                         std::string_view example) {
    const toml::node* n = get(key);
    if (n == nullptr) {
        return nullptr;
    }
    if (const auto* v = n->as<T>()) {
        return v;
    }
    type_error(key, *n, kind, example);
    return nullptr;
}

std::optional<std::string> TableReader::string(std::string_view key, std::string_view example) {
    if (const auto* s = typed<std::string>(key, "a string", example)) {
        return s->get();
    }
    return std::nullopt;
}

std::optional<TextField> TableReader::text(std::string_view key, std::string_view example) {
    if (const auto* s = typed<std::string>(key, "a string", example)) {
        return TextField{s->get(), value_pos(*s)};
    }
    return std::nullopt;
}

std::optional<std::int64_t> TableReader::integer(std::string_view key, std::int64_t min,
                                                 std::int64_t max, std::string_view example) {
    const auto* i = typed<std::int64_t>(key, "an integer", example);
    if (i == nullptr) {
        return std::nullopt;
    }
    if (i->get() < min || i->get() > max) {
        m_diag.add(value_pos(*i),
                   "\"" + std::string(key) + "\" in " + m_where + " must be between "
                       + std::to_string(min) + " and " + std::to_string(max) + ", not "
                       + std::to_string(i->get()),
                   "write it as: " + std::string(example));
        return std::nullopt;
    }
    return i->get();
}

std::optional<bool> TableReader::boolean(std::string_view key, std::string_view example) {
    if (const auto* b = typed<bool>(key, "a boolean (true or false, without quotes)", example)) {
        return b->get();
    }
    return std::nullopt;
}

std::optional<std::vector<TextField>> TableReader::string_list(std::string_view key,
                                                               std::string_view example) {
    const toml::node* n = get(key);
    if (n == nullptr) {
        return std::nullopt;
    }
    if (const auto* s = n->as_string()) {
        return std::vector<TextField>{TextField{s->get(), value_pos(*n)}};
    }
    const auto* arr = n->as_array();
    if (arr == nullptr) {
        type_error(key, *n, "a string or an array of strings", example);
        return std::nullopt;
    }
    std::vector<TextField> out;
    bool ok = true;
    for (const auto& elem : *arr) {
        if (const auto* s = elem.as_string()) {
            out.push_back(TextField{s->get(), value_pos(elem)});
        } else {
            m_diag.add(value_pos(elem),
                       "elements of \"" + std::string(key) + "\" in " + m_where
                           + " must be strings, not a " + toml_type_name(elem),
                       "quote every element: " + std::string(example));
            ok = false;
        }
    }
    if (!ok) {
        return std::nullopt;
    }
    return out;
}

std::optional<std::int64_t> TableReader::duration_ms(std::string_view key,
                                                     std::string_view example) {
    const toml::node* n = get(key);
    if (n == nullptr) {
        return std::nullopt;
    }
    std::optional<std::int64_t> ms;
    if (const auto* i = n->as_integer()) {
        if (i->get() >= 0) {
            ms = parse_duration_ms(std::to_string(i->get()));
        }
    } else if (const auto* d = n->as_floating_point()) {
        if (d->get() >= 0) {
            ms = parse_duration_ms(std::to_string(d->get()));
        }
    } else if (const auto* s = n->as_string()) {
        ms = parse_duration_ms(s->get());
    } else {
        type_error(key, *n, "a duration (seconds, or a string such as \"10s\")", example);
        return std::nullopt;
    }
    if (!ms) {
        m_diag.add(value_pos(*n), "invalid duration for \"" + std::string(key) + "\" in " + m_where,
                   "use a number of seconds or a number with a unit ms, s, min or h: "
                       + std::string(example));
    }
    return ms;
}

std::optional<std::string> TableReader::choice(std::string_view key,
                                               const std::vector<std::string>& allowed) {
    const std::string example = std::string(key) + " = \"" + allowed.front() + "\"";
    auto s = string(key, example);
    if (!s) {
        return std::nullopt;
    }
    for (const auto& a : allowed) {
        if (a == *s) {
            return s;
        }
    }
    m_diag.add(value_pos(*m_table.get(key)),
               "invalid value \"" + *s + "\" for \"" + std::string(key) + "\" in " + m_where
                   + did_you_mean(*s, allowed),
               "use one of " + quoted_list(allowed));
    return std::nullopt;
}

void TableReader::finish(const std::vector<std::string>& elsewhere,
                         std::string_view elsewhere_what) {
    const std::vector<std::string> allowed(m_allowed.begin(), m_allowed.end());
    for (const auto& [k, v] : m_table) {
        if (m_allowed.count(k.str()) != 0) {
            continue;
        }
        const SourcePos p = pos_of(k.source(), m_file);
        bool other = false;
        for (const auto& e : elsewhere) {
            other = other || e == k.str();
        }
        if (other) {
            m_diag.add(p, "key \"" + std::string(k.str()) + "\" does not apply to " + m_where,
                       "it is a key of " + std::string(elsewhere_what) + "; remove it here");
            continue;
        }
        m_diag.add(p,
                   "unknown key \"" + std::string(k.str()) + "\" in " + m_where
                       + did_you_mean(k.str(), allowed),
                   "allowed keys here: " + quoted_list(allowed));
    }
}

} // namespace pglab::lab::experiment
