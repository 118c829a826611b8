// lab/store: field access for the serialisers.
#include "lab/store/json_fields.hpp"

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

std::optional<std::uint64_t> unsigned_integer(const json& j, const char* key) {
    const json* v = find(j, key);
    return v != nullptr && v->is_number_unsigned()
               ? std::optional<std::uint64_t>(v->get<std::uint64_t>())
               : std::nullopt;
}

bool boolean(const json& j, const char* key, bool fallback) {
    const json* v = find(j, key);
    return v != nullptr && v->is_boolean() ? v->get<bool>() : fallback;
}

std::vector<std::string> texts(const json& j, const char* key) {
    std::vector<std::string> out;
    const json* v = find(j, key);
    if (v == nullptr || !v->is_array()) {
        return out;
    }
    for (const auto& item : *v) {
        if (item.is_string()) {
            out.push_back(item.get<std::string>());
        }
    }
    return out;
}

json value(const json& j, const char* key) {
    const json* v = find(j, key);
    return v == nullptr ? json(nullptr) : *v;
}

json text_or_null(const std::string& s) {
    return s.empty() ? json(nullptr) : json(s);
}

json count_or_null(std::int64_t n) {
    return n > 0 ? json(n) : json(nullptr);
}

} // namespace pglab::lab::store::fields
