// lab/experiment: text forms of scalars.
#include "lab/experiment/scalar.hpp"

#include <charconv>

namespace pglab::lab::experiment {

double Scalar::as_double() const {
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
        return static_cast<double>(*i);
    }
    if (const auto* d = std::get_if<double>(&value)) {
        return *d;
    }
    return 0.0;
}

std::string Scalar::text() const {
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
        return std::to_string(*i);
    }
    if (const auto* d = std::get_if<double>(&value)) {
        char buf[64];
        const auto r = std::to_chars(buf, buf + sizeof buf, *d);
        return std::string(buf, r.ptr);
    }
    if (const auto* b = std::get_if<bool>(&value)) {
        return *b ? "true" : "false";
    }
    return std::get<std::string>(value);
}

std::string Scalar::setting_text() const {
    if (const auto* b = std::get_if<bool>(&value)) {
        return *b ? "on" : "off";
    }
    return text();
}

const char* Scalar::kind_name() const {
    switch (value.index()) {
    case 0:
        return "integer";
    case 1:
        return "float";
    case 2:
        return "boolean";
    default:
        return "string";
    }
}

} // namespace pglab::lab::experiment
