// lab/store: field access for the serialisers.
#include "lab/store/json_fields.hpp"

#include "util/named_values.hpp"

#include <fmt/format.h>

namespace pglab::lab::store::fields {

namespace {

const json* find(const json& j, const char* key) {
    if (!j.is_object()) {
        return nullptr;
    }
    const auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

} // namespace

std::optional<std::string> optional_text(const json& j, const char* key) {
    const json* v = find(j, key);
    return v != nullptr && v->is_string() ? std::optional<std::string>(v->get<std::string>())
                                          : std::nullopt;
}

std::string text(const json& j, const char* key) {
    return optional_text(j, key).value_or(std::string());
}

std::optional<std::int64_t> integer(const json& j, const char* key) {
    const json* v = find(j, key);
    return v != nullptr && v->is_number_integer()
               ? std::optional<std::int64_t>(v->get<std::int64_t>())
               : std::nullopt;
}

std::optional<double> number(const json& j, const char* key) {
    const json* v = find(j, key);
    return v != nullptr && v->is_number() ? std::optional<double>(v->get<double>()) : std::nullopt;
}

namespace {

/// An integer that is not negative: parsed text gives an unsigned one, a value made in memory
/// (`json(0)`) a signed one.
bool is_unsigned(const json& v) {
    return v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
}

} // namespace

std::optional<std::uint64_t> unsigned_integer(const json& j, const char* key) {
    const json* v = find(j, key);
    return v != nullptr && is_unsigned(*v) ? std::optional<std::uint64_t>(v->get<std::uint64_t>())
                                           : std::nullopt;
}

bool boolean(const json& j, const char* key, bool fallback) {
    const json* v = find(j, key);
    return v != nullptr && v->is_boolean() ? v->get<bool>() : fallback;
}

std::optional<std::vector<std::string>> optional_texts(const json& j, const char* key) {
    const json* v = find(j, key);
    if (v == nullptr || !v->is_array()) {
        return std::nullopt;
    }
    std::vector<std::string> out;
    for (const auto& item : *v) {
        if (item.is_string()) {
            out.push_back(item.get<std::string>());
        }
    }
    return out;
}

std::vector<std::string> texts(const json& j, const char* key) {
    return optional_texts(j, key).value_or(std::vector<std::string>{});
}

const json& value(const json& j, const char* key) {
    static const json k_null;
    const json* v = find(j, key);
    return v == nullptr ? k_null : *v;
}

json text_or_null(const std::string& s) {
    return s.empty() ? json(nullptr) : json(s);
}

json number_or_null(const std::optional<double>& n) {
    return n ? json(*n) : json(nullptr);
}

json integer_or_null(const std::optional<std::int64_t>& n) {
    return n ? json(*n) : json(nullptr);
}

namespace {

bool has_kind(const json& v, Kind kind) {
    switch (kind) {
    case Kind::text:
        return v.is_string();
    case Kind::number:
        return v.is_number();
    case Kind::integer:
        return v.is_number_integer();
    case Kind::unsigned_integer:
        return is_unsigned(v);
    case Kind::boolean:
        return v.is_boolean();
    case Kind::object:
        return v.is_object();
    case Kind::array:
        return v.is_array();
    }
    return false;
}

const char* kind_name(Kind kind) {
    static constexpr std::pair<Kind, const char*> k_kinds[] = {
        {Kind::text, "a string"},      {Kind::number, "a number"},
        {Kind::integer, "an integer"}, {Kind::unsigned_integer, "an unsigned integer"},
        {Kind::boolean, "a boolean"},  {Kind::object, "an object"},
        {Kind::array, "an array"},
    };
    return util::name_of(k_kinds, kind);
}

} // namespace

Status check_types(const json& j, std::span<const FieldType> types) {
    for (const FieldType& t : types) {
        const json* v = find(j, t.key);
        if (v == nullptr || has_kind(*v, t.kind) || (t.nullable && v->is_null())) {
            continue;
        }
        const std::string_view got = v->type_name();
        const char* article = got == "null" ? "" : got == "object" || got == "array" ? "an " : "a ";
        return make_error(fmt::format("\"{}\" is {}{}, not {}{}", t.key, article, got,
                                      kind_name(t.kind), t.nullable ? " or null" : ""));
    }
    return {};
}

json count_or_null(std::int64_t n) {
    return n > 0 ? json(n) : json(nullptr);
}

} // namespace pglab::lab::store::fields
