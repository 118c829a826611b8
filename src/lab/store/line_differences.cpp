// lab/store: a line compared with its record written back.
#include "lab/store/line_differences.hpp"

#include <fmt/format.h>

namespace pglab::lab::store {

namespace {

using nlohmann::json;

constexpr std::size_t k_shown = 40;

std::string shown(const json& value) {
    std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > k_shown) {
        text.resize(k_shown - 3);
        text += "...";
    }
    return text;
}

void compare(const json& line, const json& written, const std::string& path,
             std::vector<LineDifference>& out) {
    if (line == written) {
        return; // numbers compare by value: 5 and 5.0 are the same
    }
    const auto child = [&path](const std::string& key) {
        return path.empty() ? key : path + "." + key;
    };
    if (line.is_object() && written.is_object()) {
        for (const auto& [key, value] : line.items()) {
            const auto it = written.find(key);
            if (it == written.end()) {
                out.push_back({child(key), shown(value), std::nullopt});
            } else {
                compare(value, *it, child(key), out);
            }
        }
        return;
    }
    if (line.is_array() && written.is_array()) {
        // Readers leave out items they cannot read, so the record's items are the line's in
        // order with some missing: each line item is matched with the next equal one.
        std::size_t next = 0;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const std::string at = fmt::format("{}[{}]", path, i);
            std::size_t j = next;
            while (j < written.size() && written[j] != line[i]) {
                ++j;
            }
            if (j < written.size()) {
                next = j + 1;
            } else if (next < written.size() && line.size() - i == written.size() - next) {
                compare(line[i], written[next++], at, out); // as many left: read differently
            } else {
                out.push_back({at, shown(line[i]), std::nullopt});
            }
        }
        return;
    }
    // Read as absent (null) is left out; read as anything else (0, "") would be used.
    out.push_back(
        {path, shown(line), written.is_null() ? std::nullopt : std::optional(shown(written))});
}

} // namespace

std::string LineDifference::sentence() const {
    if (!read_as) {
        return fmt::format("{} ({}) is not read: left out", path, value);
    }
    return fmt::format("{} is {}, which this pglab reads as {}", path, value, *read_as);
}

std::vector<LineDifference> line_differences(const json& line, const json& written) {
    std::vector<LineDifference> out;
    compare(line, written, "", out);
    return out;
}

} // namespace pglab::lab::store
