// util: shortened values for messages, and quoted literals.
#include "util/text.hpp"

#include <fmt/format.h>

#include <cctype>

namespace pglab::util {

namespace {

/// The longest prefix of `text` of at most `n` bytes that does not split a UTF-8 character.
std::string_view utf8_prefix(std::string_view text, std::size_t n) {
    if (n >= text.size()) {
        return text;
    }
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0U) == 0x80U) {
        --n;
    }
    return text.substr(0, n);
}

} // namespace

std::string shorten(std::string_view text, std::size_t max) {
    if (text.size() <= max) {
        return std::string(text);
    }
    const std::size_t keep = max > 20 ? max - 20 : max;
    return fmt::format("{}… ({} characters)", utf8_prefix(text, keep), text.size());
}

std::string shorten_quoted(std::string_view message, std::size_t max) {
    std::string out;
    std::size_t pos = 0;
    while (pos < message.size()) {
        const std::size_t open = message.find('"', pos);
        const std::size_t close =
            open == std::string_view::npos ? std::string_view::npos : message.find('"', open + 1);
        if (close == std::string_view::npos) {
            out += message.substr(pos);
            break;
        }
        out += message.substr(pos, open + 1 - pos);
        out += shorten(message.substr(open + 1, close - open - 1), max);
        out += '"';
        pos = close + 1;
    }
    return shorten(out, 50 * max);
}

std::string doubling_quoted(std::string_view text, char quote) {
    std::string out(1, quote);
    for (const char c : text) {
        out += c;
        if (c == quote) {
            out += quote;
        }
    }
    return out + quote;
}

std::string first_line(std::string_view text) {
    return std::string(text.substr(0, text.find('\n')));
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
        text.remove_suffix(1);
    }
    return text;
}

std::string ascii_lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) {
        if (c >= 'A' && c <= 'Z') {
            c = static_cast<char>(c - 'A' + 'a');
        }
    }
    return out;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) {
            out += separator;
        }
        out += items[i];
    }
    return out;
}

} // namespace pglab::util
