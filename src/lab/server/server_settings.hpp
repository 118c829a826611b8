// postgresql.conf settings as ordered key/value pairs, and the file pglab writes them into.
#pragma once

#include "util/result.hpp"

#include <string>
#include <utility>
#include <vector>

namespace pglab::lab::server {

/// Settings in order; a later entry for the same name wins, as in postgresql.conf.
using Settings = std::vector<std::pair<std::string, std::string>>;

/// `value` as a postgresql.conf string literal: in single quotes, with ' and \ doubled.
std::string quote_setting(const std::string& value);

/// The text of a configuration file: "name = 'value'" lines after a comment header. Error when a
/// name is not a valid setting name ([A-Za-z0-9_.]).
Result<std::string> render_settings(const Settings& settings);

/// Sets `name` to `value` in `settings`, replacing an earlier entry for it.
void set_setting(Settings& settings, const std::string& name, const std::string& value);

} // namespace pglab::lab::server
