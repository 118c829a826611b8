// Rendering settings as postgresql.conf lines.
#include "lab/server/server_settings.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace pglab::lab::server {

std::string quote_setting(const std::string& value) {
    std::string out = "'";
    for (const char c : value) {
        if (c == '\'' || c == '\\') {
            out += c;
        }
        out += c;
    }
    out += '\'';
    return out;
}

Result<std::string> render_settings(const Settings& settings) {
    std::string out = "# Written by pglab for a throwaway cluster; rewritten on every change.\n";
    for (const auto& [name, value] : settings) {
        const bool valid = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.';
        });
        if (!valid) {
            return make_error(fmt::format("invalid setting name \"{}\"", name));
        }
        out += fmt::format("{} = {}\n", name, quote_setting(value));
    }
    return out;
}

void set_setting(Settings& settings, const std::string& name, const std::string& value) {
    std::erase_if(settings, [&name](const auto& kv) { return kv.first == name; });
    settings.emplace_back(name, value);
}

} // namespace pglab::lab::server
