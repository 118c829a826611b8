// lab/experiment: connection strings of an experiment file rewritten in place in its text.
#include "lab/experiment/connection_strings.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace pglab::lab::experiment {

namespace {

/// The string nodes that libpq may read as a connection string, in a fixed order (servers,
/// sessions, steps; tables by key, arrays by index), so that two parses of texts with the same
/// structure give matching lists.
std::vector<const toml::node*> connection_string_nodes(const toml::table& root) {
    std::vector<const toml::node*> nodes;
    const auto add = [&](const toml::node* n) {
        if (n != nullptr && n->is_string()) {
            nodes.push_back(n);
        }
    };
    const auto each_table = [](const toml::node* n, const auto& fn) {
        if (const auto* t = n != nullptr ? n->as_table() : nullptr) {
            for (const auto& [key, value] : *t) {
                if (const auto* entry = value.as_table()) {
                    fn(*entry);
                }
            }
        }
    };
    each_table(root.get("servers"), [&](const toml::table& s) { add(s.get("conninfo")); });
    each_table(root.get("sessions"), [&](const toml::table& s) { add(s.get("database")); });
    if (const auto* steps = root.get_as<toml::array>("steps")) {
        for (const auto& step : *steps) {
            const auto* t = step.as_table();
            const toml::node* options = t != nullptr ? t->get("options") : nullptr;
            if (const auto* list = options != nullptr ? options->as_array() : nullptr) {
                for (const auto& item : *list) {
                    add(&item);
                }
            } else {
                add(options);
            }
        }
    }
    return nodes;
}

/// Byte offsets of the start of each line (toml++ counts lines from 1 at '\n').
std::vector<std::size_t> line_starts(std::string_view text) {
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\n') {
            starts.push_back(i + 1);
        }
    }
    return starts;
}

/// The byte offset of a toml++ position (line and column from 1, columns in code points);
/// npos when it lies outside `text`.
std::size_t byte_offset(std::string_view text, const std::vector<std::size_t>& starts,
                        const toml::source_position& pos) {
    if (pos.line == 0 || pos.line > starts.size() || pos.column == 0) {
        return std::string_view::npos;
    }
    std::size_t i = starts[pos.line - 1];
    for (toml::source_index col = 1; col < pos.column; ++col) {
        if (i >= text.size() || text[i] == '\n') {
            return std::string_view::npos;
        }
        ++i; // past the lead byte, then past the continuation bytes of a UTF-8 sequence
        while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0U) == 0x80U) {
            ++i;
        }
    }
    return i;
}

bool is_control(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7F;
}

/// `value` as a TOML basic string: "..." with \", \\ and control characters escaped.
std::string basic_string(std::string_view value) {
    std::string out = "\"";
    for (const char c : value) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\f':
            out += "\\f";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (is_control(c)) {
                out +=
                    fmt::format("\\u{:04X}", static_cast<unsigned>(static_cast<unsigned char>(c)));
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

/// `value` written in the style of `old_literal`: a '...' literal string when the old one was
/// one and the value fits in it (no quote, no control character but tab), else a basic string.
std::string toml_string_like(std::string_view old_literal, std::string_view value) {
    const bool single_line_literal =
        old_literal.size() >= 2 && old_literal.front() == '\'' && !old_literal.starts_with("'''");
    bool fits = true;
    for (const char c : value) {
        fits = fits && c != '\'' && (c == '\t' || !is_control(c));
    }
    if (single_line_literal && fits) {
        return "'" + std::string(value) + "'";
    }
    return basic_string(value);
}

struct Replacement {
    std::size_t begin = 0; ///< byte range of the old literal in the text
    std::size_t end = 0;
    std::string literal; ///< the new one
};

} // namespace

Result<std::string> rewrite_connection_strings(std::string_view text,
                                               const ConnectionStringRewrite& rewrite) {
    toml::table root;
    try {
        root = toml::parse(text);
    } catch (const toml::parse_error& e) {
        return make_error(fmt::format("invalid TOML: {}", e.description()));
    }
    const std::vector<std::size_t> starts = line_starts(text);
    std::vector<std::string> expected; // every value, as the rewritten text must give it back
    std::vector<Replacement> replacements;
    for (const toml::node* node : connection_string_nodes(root)) {
        const std::string& value = node->as_string()->get();
        std::string changed = rewrite(value);
        if (changed != value) {
            const std::size_t begin = byte_offset(text, starts, node->source().begin);
            const std::size_t end = byte_offset(text, starts, node->source().end);
            if (begin == std::string_view::npos || end == std::string_view::npos || end <= begin
                || (text[begin] != '"' && text[begin] != '\'')) {
                return make_error(fmt::format("could not find the string at line {} column {}",
                                              node->source().begin.line,
                                              node->source().begin.column));
            }
            replacements.push_back(
                {begin, end, toml_string_like(text.substr(begin, end - begin), changed)});
        }
        expected.push_back(std::move(changed));
    }
    if (replacements.empty()) {
        return std::string(text);
    }
    std::sort(replacements.begin(), replacements.end(),
              [](const Replacement& a, const Replacement& b) { return a.begin < b.begin; });
    std::string out;
    std::size_t pos = 0;
    for (const Replacement& r : replacements) {
        out.append(text.substr(pos, r.begin - pos));
        out += r.literal;
        pos = r.end;
    }
    out.append(text.substr(pos));

    // Read it back: the same strings in the same places, with the rewritten values.
    try {
        const toml::table again = toml::parse(out);
        const std::vector<const toml::node*> nodes = connection_string_nodes(again);
        bool same = nodes.size() == expected.size();
        for (std::size_t i = 0; same && i < nodes.size(); ++i) {
            same = nodes[i]->as_string()->get() == expected[i];
        }
        if (!same) {
            return make_error("the rewritten text does not give the rewritten values");
        }
    } catch (const toml::parse_error& e) {
        return make_error(fmt::format("the rewritten text is not valid TOML: {}", e.description()));
    }
    return out;
}

} // namespace pglab::lab::experiment
