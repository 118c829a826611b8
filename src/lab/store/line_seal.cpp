// lab/store: the checksum of a results.jsonl line.
#include "lab/store/line_seal.hpp"

#include <fmt/format.h>

#include <zlib.h>

#include <charconv>

namespace pglab::lab::store {

namespace {

/// The compact text pglab writes a line's object as (invalid UTF-8 replaced, as append writes
/// it): parsed and written again, a line gives the same text, so the reader checks what the
/// writer summed.
std::string compact_text(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::uint32_t crc_of(const std::string& text) {
    return static_cast<std::uint32_t>(
        ::crc32(0L, reinterpret_cast<const Bytef*>(text.data()), static_cast<uInt>(text.size())));
}

} // namespace

std::string sealed_text(nlohmann::json line) {
    line.erase(k_seal_key);
    const std::uint32_t crc = crc_of(compact_text(line));
    line[k_seal_key] = fmt::format("{:08x}", crc);
    return compact_text(line);
}

Seal open_seal(nlohmann::json& doc) {
    const auto it = doc.find(k_seal_key);
    if (it == doc.end()) {
        return Seal::absent;
    }
    std::uint32_t stated = 0;
    bool readable = false;
    if (it->is_string()) {
        const std::string& hex = it->get_ref<const std::string&>();
        const auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), stated, 16);
        readable = hex.size() == 8 && ec == std::errc() && end == hex.data() + hex.size();
    }
    doc.erase(it);
    return readable && crc_of(compact_text(doc)) == stated ? Seal::intact : Seal::broken;
}

} // namespace pglab::lab::store
