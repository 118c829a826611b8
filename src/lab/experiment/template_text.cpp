// lab/experiment: `${name}` scanning and expansion.
#include "lab/experiment/template_text.hpp"

#include <variant>

namespace pglab::lab::experiment {
namespace {

bool is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
           || c == '.';
}

/// Walks `text`, calling `literal(piece)` for literal text and `ref(name, offset)` for each
/// reference. Returns the first syntax error, if any.
template <class Literal, class Ref>
std::optional<TemplateError> scan(std::string_view text, Literal literal, Ref ref) {
    std::size_t i = 0;
    std::size_t start = 0;
    while (i < text.size()) {
        if (text[i] != '$') {
            ++i;
            continue;
        }
        if (text.substr(i, 3) == "$${") {
            literal(text.substr(start, i - start));
            literal("${");
            i += 3;
            start = i;
            continue;
        }
        if (text.substr(i, 2) != "${") {
            ++i;
            continue;
        }
        literal(text.substr(start, i - start));
        const std::size_t close = text.find('}', i + 2);
        if (close == std::string_view::npos) {
            return TemplateError{"unterminated \"${\"", i};
        }
        const std::string_view name = text.substr(i + 2, close - i - 2);
        if (name.empty()) {
            return TemplateError{"empty variable name in \"${}\"", i};
        }
        for (const char c : name) {
            if (!is_name_char(c)) {
                return TemplateError{"invalid variable name \"" + std::string(name) + "\"", i};
            }
        }
        if (name.front() == '.' || name.back() == '.') {
            return TemplateError{"invalid variable name \"" + std::string(name) + "\"", i};
        }
        ref(name, i);
        i = close + 1;
        start = i;
    }
    literal(text.substr(start));
    return std::nullopt;
}

} // namespace

std::variant<std::vector<TemplateRef>, TemplateError> template_refs(std::string_view text) {
    std::vector<TemplateRef> refs;
    auto err = scan(
        text, [](std::string_view) {},
        [&](std::string_view name, std::size_t offset) {
            refs.push_back(TemplateRef{std::string(name), offset});
        });
    if (err) {
        return *err;
    }
    return refs;
}

Result<std::string> expand_template(std::string_view text, const TemplateLookup& lookup) {
    std::string out;
    std::string missing;
    auto err = scan(
        text, [&](std::string_view piece) { out += piece; },
        [&](std::string_view name, std::size_t) {
            if (!missing.empty()) {
                return;
            }
            if (auto v = lookup(name)) {
                out += *v;
            } else {
                missing = name;
            }
        });
    if (err) {
        return make_error(err->message);
    }
    if (!missing.empty()) {
        return make_error("variable \"" + missing + "\" is not defined");
    }
    return out;
}

} // namespace pglab::lab::experiment
